package io.rwsplit.hibernate;

import java.util.Map;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;

import io.rwsplit.config.Settings;
import io.rwsplit.config.SettingsTable;
import io.rwsplit.consistency.ConsistencyConfig;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.spi.TransactionStatus;

/**
 * What a persistence unit's routing needs beyond its replica lists, read and validated once at startup in the
 * same way for a single primary and for tenants: every {@code hibernate.rwsplit.*} value, the refusal of a
 * provider that disables autocommit, the clock, the container hooks and the consistency settings.
 *
 * @param clock             the time source
 * @param transactionStatus where JTA transactions are seen
 * @param intentSource      the intent of the current unit of work
 * @param consistency       the consistency settings
 */
record UnitSettings(Clock clock, TransactionStatus transactionStatus, RoutingIntentSource intentSource,
                    ConsistencyConfig consistency, java.time.Duration queryTimeout) {

    /** The Jakarta Persistence query timeout in milliseconds, and its older name. */
    static final String[] QUERY_TIMEOUT = {"jakarta.persistence.query.timeout", "javax.persistence.query.timeout"};

    static final String PROVIDER_DISABLES_AUTOCOMMIT = "hibernate.connection.provider_disables_autocommit";

    /**
     * @throws ConnectionProviderConfigurationException naming the key and the value of the first setting refused
     */
    static UnitSettings read(Map<String, Object> settings) {
        Settings.check(settings);
        if ("true".equalsIgnoreCase(String.valueOf(settings.get(PROVIDER_DISABLES_AUTOCOMMIT)).trim())) {
            throw new ConnectionProviderConfigurationException(
                    "hibernate-rwsplit: setting '" + PROVIDER_DISABLES_AUTOCOMMIT + "' is 'true', which is not"
                            + " supported: routing needs the setAutoCommit(false) call that marks the start of a transaction."
                            + " Remove the setting or set it to false");
        }
        Settings s = new Settings(settings);
        Clock clock = s.object(SettingsTable.CLOCK, Clock.class);
        ConsistencyConfig consistency = ConsistencyConfig.from(s);
        return new UnitSettings(clock != null ? clock : Clock.SYSTEM, RoutingHooks.transactionStatus(settings),
                RoutingHooks.intentSource(settings), consistency, queryTimeout(settings));
    }

    /** The unit's query timeout ({@link #QUERY_TIMEOUT}, milliseconds), or null when none is set. */
    private static java.time.Duration queryTimeout(Map<String, Object> settings) {
        for (String key : QUERY_TIMEOUT) {
            Object value = settings.get(key);
            if (value == null || value.toString().isBlank()) {
                continue;
            }
            try {
                long millis = value instanceof Number n ? n.longValue() : Long.parseLong(value.toString().trim());
                if (millis >= 0) {
                    return millis == 0 ? null : java.time.Duration.ofMillis(millis);
                }
            }
            catch (NumberFormatException e) {
                // reported below
            }
            throw new ConnectionProviderConfigurationException("hibernate-rwsplit: setting '" + key + "' is '" + value
                    + "', expected a number of milliseconds of at least 0");
        }
        return null;
    }
}
