package io.rwsplit.internal.hibernate;

import java.util.Locale;
import java.util.Map;

import jakarta.transaction.TransactionSynchronizationRegistry;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.Settings;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.spi.TransactionStatus;

/** Reads the container hooks ({@link RwSplitSettings#TRANSACTION_STATUS}, {@link RwSplitSettings#INTENT_SOURCE}). */
final class RoutingHooks {

    private RoutingHooks() {
    }

    static TransactionStatus transactionStatus(Map<String, Object> settings) {
        Object value = settings.get(RwSplitSettings.TRANSACTION_STATUS);
        if (value == null) {
            if (usesJta(settings)) {
                throw new ConnectionProviderConfigurationException("hibernate-rwsplit: the persistence unit uses JTA"
                        + " transactions, which never call Connection#setAutoCommit, so routing cannot see them: set '"
                        + RwSplitSettings.TRANSACTION_STATUS + "' to the TransactionSynchronizationRegistry"
                        + " (or an io.rwsplit.spi.TransactionStatus)");
            }
            return TransactionStatus.NONE;
        }
        if (value instanceof TransactionSynchronizationRegistry registry) {
            return new JtaTransactionStatus(registry);
        }
        return Settings.instantiate(RwSplitSettings.TRANSACTION_STATUS, value, TransactionStatus.class);
    }

    static RoutingIntentSource intentSource(Map<String, Object> settings) {
        Object value = settings.get(RwSplitSettings.INTENT_SOURCE);
        if (value == null) {
            return RoutingIntentSource.NONE;
        }
        return Settings.instantiate(RwSplitSettings.INTENT_SOURCE, value, RoutingIntentSource.class);
    }

    /** Whether the unit coordinates transactions through JTA. */
    static boolean usesJta(Map<String, Object> settings) {
        Object coordinator = settings.get("hibernate.transaction.coordinator_class");
        if (coordinator != null) {
            String text = (coordinator instanceof Class<?> c ? c.getName() : coordinator.toString()).toLowerCase(Locale.ROOT);
            return text.equals("jta") || text.contains("jtatransactioncoordinator");
        }
        Object type = settings.get("jakarta.persistence.transactionType");
        return type != null && type.toString().equalsIgnoreCase("JTA");
    }
}
