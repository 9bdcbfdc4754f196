package io.rwsplit.internal.hibernate;

import java.util.Map;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.Settings;
import io.rwsplit.internal.config.SettingsTable;
import io.rwsplit.internal.consistency.ConsistencyConfig;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.spi.TransactionStatus;

/**
 * What a persistence unit's routing needs beyond its replica lists, read and validated once at startup in the
 * same way for a single primary and for tenants: every {@code hibernate.rwsplit.*} value, the refusal of a
 * provider that disables autocommit unless a transaction status is given, the clock, the container hooks and the consistency settings.
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
        Settings s = new Settings(settings);
        // without setAutoCommit(false) only a transaction status can tell where a transaction begins (Quarkus: JTA)
        if (s.isTrue(PROVIDER_DISABLES_AUTOCOMMIT) && settings.get(RwSplitSettings.TRANSACTION_STATUS) == null) {
            throw new ConnectionProviderConfigurationException(
                    "hibernate-rwsplit: setting '" + PROVIDER_DISABLES_AUTOCOMMIT + "' is 'true', which is supported"
                            + " only with '" + RwSplitSettings.TRANSACTION_STATUS + "': routing needs the"
                            + " setAutoCommit(false) call that marks the start of a transaction, or a transaction status"
                            + " (the JTA TransactionSynchronizationRegistry) that tells it. Set '"
                            + RwSplitSettings.TRANSACTION_STATUS + "', or remove the setting or set it to false");
        }
        Clock clock = s.object(SettingsTable.CLOCK, Clock.class);
        ConsistencyConfig consistency = ConsistencyConfig.from(s);
        return new UnitSettings(clock != null ? clock : Clock.SYSTEM, RoutingHooks.transactionStatus(settings),
                RoutingHooks.intentSource(settings), consistency, queryTimeout(s));
    }

    /** The unit's query timeout ({@link #QUERY_TIMEOUT}, milliseconds; the first one set), or null when none or 0. */
    private static java.time.Duration queryTimeout(Settings s) {
        for (String key : QUERY_TIMEOUT) {
            java.time.Duration timeout = s.millis(key);
            if (timeout != null) {
                return timeout.isZero() ? null : timeout;
            }
        }
        return null;
    }
}
