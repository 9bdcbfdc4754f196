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
import io.rwsplit.spi.ScopeResolver;

/**
 * The persistence-unit properties that connect a unit to the container: add {@link #properties()} to the
 * properties the application's {@code EntityManagerFactory} producer passes to
 * {@code Persistence.createEntityManagerFactory} (together with {@link RwSplitDataSources#properties()}).
 * <ul>
 *   <li>{@value RwSplitSettings#INTENT_SOURCE}: the interceptors' intent and consistency level;</li>
 *   <li>{@value RwSplitSettings#SCOPE_RESOLVER}: the consistency scope named in {@link RwSplitRequest};</li>
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

    private volatile CdiIntentSource requestView;

    /** The properties to add to the unit's properties. */
    public Map<String, Object> properties() {
        Map<String, Object> properties = new HashMap<>();
        CdiIntentSource request = requestView();
        properties.put(RwSplitSettings.INTENT_SOURCE, request);
        properties.put(RwSplitSettings.SCOPE_RESOLVER, request);
        if (transactions.isResolvable()) {
            properties.put(RwSplitSettings.TRANSACTION_STATUS, transactions.get());
        }
        return properties;
    }

    /** What the core reads per statement: the current request's intent and consistency level. */
    public RoutingIntentSource intentSource() {
        return requestView();
    }

    /** What the core reads once per session: the current request's scope key. */
    public ScopeResolver scopeResolver() {
        return requestView();
    }

    private CdiIntentSource requestView() {
        CdiIntentSource view = requestView;
        if (view == null) {
            view = new CdiIntentSource(beanManager);
            requestView = view;
        }
        return view;
    }
}
