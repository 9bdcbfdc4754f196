package io.rwsplit.cdi;

import java.util.HashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.spi.RoutingIntentSource;

/**
 * The persistence-unit properties that connect a unit to the container: add {@link #properties()} to the
 * properties the application's {@code EntityManagerFactory} producer passes to
 * {@code Persistence.createEntityManagerFactory} (together with {@link RwSplitDataSources#properties()}).
 * <ul>
 *   <li>{@value RwSplitSettings#INTENT_SOURCE}: the interceptors' intent, scope key and consistency level;</li>
 *   <li>{@value RwSplitSettings#TRANSACTION_STATUS}: the container's {@link TransactionSynchronizationRegistry},
 *       when there is one, so that JTA transactions stay on the primary.</li>
 * </ul>
 */
@ApplicationScoped
public class RwSplitPersistence {

    @Inject
    BeanManager beanManager;

    @Inject
    Instance<TransactionSynchronizationRegistry> transactions;

    private volatile RoutingIntentSource intentSource;

    /** The properties to add to the unit's properties. */
    public Map<String, Object> properties() {
        Map<String, Object> properties = new HashMap<>();
        properties.put(RwSplitSettings.INTENT_SOURCE, intentSource());
        if (transactions.isResolvable()) {
            properties.put(RwSplitSettings.TRANSACTION_STATUS, transactions.get());
        }
        return properties;
    }

    /** What the core reads per statement: the current request's intent, consistency level and scope key. */
    public RoutingIntentSource intentSource() {
        RoutingIntentSource source = intentSource;
        if (source == null) {
            source = new CdiIntentSource(beanManager);
            intentSource = source;
        }
        return source;
    }
}
