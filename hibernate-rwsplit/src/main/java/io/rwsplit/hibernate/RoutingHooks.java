package io.rwsplit.hibernate;

import java.util.Locale;
import java.util.Map;

import jakarta.transaction.TransactionSynchronizationRegistry;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.config.Settings;
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
        return instance(RwSplitSettings.TRANSACTION_STATUS, value, TransactionStatus.class,
                "an io.rwsplit.spi.TransactionStatus or a jakarta.transaction.TransactionSynchronizationRegistry object, or a TransactionStatus class name");
    }

    static RoutingIntentSource intentSource(Map<String, Object> settings) {
        Object value = settings.get(RwSplitSettings.INTENT_SOURCE);
        if (value == null) {
            return RoutingIntentSource.NONE;
        }
        return instance(RwSplitSettings.INTENT_SOURCE, value, RoutingIntentSource.class,
                "an io.rwsplit.spi.RoutingIntentSource object or class name");
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

    private static <T> T instance(String key, Object value, Class<T> type, String expected) {
        if (type.isInstance(value)) {
            return type.cast(value);
        }
        if (value instanceof String name && !name.isBlank()) {
            try {
                Class<?> c = Class.forName(name.trim(), true, classLoader());
                if (type.isAssignableFrom(c)) {
                    return type.cast(c.getConstructor().newInstance());
                }
            }
            catch (ReflectiveOperationException | LinkageError e) {
                throw new ConnectionProviderConfigurationException("hibernate-rwsplit: cannot instantiate '" + name
                        + "' given by setting '" + key + "': " + e, e);
            }
        }
        throw Settings.invalid(key, value, expected);
    }

    private static ClassLoader classLoader() {
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        return tccl != null ? tccl : RoutingHooks.class.getClassLoader();
    }
}
