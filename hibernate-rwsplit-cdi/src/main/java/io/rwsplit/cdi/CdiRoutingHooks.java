package io.rwsplit.cdi;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.rwsplit.Intent;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.spi.ScopeResolver;
import io.rwsplit.spi.TransactionStatus;

/**
 * The CDI hooks by class name, for persistence units the container builds from {@code persistence.xml}
 * (where no object can be passed):
 * <pre>{@code
 * <property name="hibernate.rwsplit.intent_source" value="io.rwsplit.cdi.CdiRoutingHooks"/>
 * <property name="hibernate.rwsplit.scope_resolver" value="io.rwsplit.cdi.CdiRoutingHooks"/>
 * <property name="hibernate.rwsplit.transaction_status" value="io.rwsplit.cdi.CdiRoutingHooks"/>
 * }</pre>
 * Each setting gets its own instance; each finds the container through {@link CDI#current()} at its first
 * call (units may start before the CDI container does). Transactions come from the
 * {@link TransactionSynchronizationRegistry} bean.
 */
public final class CdiRoutingHooks implements RoutingIntentSource, ScopeResolver, TransactionStatus {

    private volatile CdiIntentSource request;
    private volatile TransactionSynchronizationRegistry registry;

    @Override
    public Intent currentIntent() {
        return request().currentIntent();
    }

    @Override
    public io.rwsplit.Consistency currentConsistency() {
        return request().currentConsistency();
    }

    @Override
    public String resolveScope() {
        return request().resolveScope();
    }

    @Override
    public Object currentTransaction() {
        TransactionSynchronizationRegistry r = registry;
        if (r == null) {
            r = CDI.current().select(TransactionSynchronizationRegistry.class).get();
            registry = r;
        }
        int status = r.getTransactionStatus();
        return status == Status.STATUS_NO_TRANSACTION || status == Status.STATUS_COMMITTED
                || status == Status.STATUS_ROLLEDBACK || status == Status.STATUS_UNKNOWN ? null : r.getTransactionKey();
    }

    private CdiIntentSource request() {
        CdiIntentSource r = request;
        if (r == null) {
            r = new CdiIntentSource(CDI.current().getBeanManager());
            request = r;
        }
        return r;
    }
}
