package io.rwsplit.cdi;

import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.context.spi.Context;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;

import io.rwsplit.Intent;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.spi.ScopeResolver;

/**
 * The core's view of the current request's {@link RwSplitRequest}: intent and consistency level read once
 * per statement, scope key once per session, on the statement's thread. It never creates the request bean and answers "nothing asked" where no request
 * context is active.
 */
final class CdiIntentSource implements RoutingIntentSource, ScopeResolver {

    private final BeanManager beanManager;
    private volatile Bean<RwSplitRequest> bean;

    CdiIntentSource(BeanManager beanManager) {
        this.beanManager = beanManager;
    }

    @Override
    public Intent currentIntent() {
        RwSplitRequest request = request();
        return request == null ? Intent.NONE : request.intent();
    }

    @Override
    public io.rwsplit.Consistency currentConsistency() {
        RwSplitRequest request = request();
        return request == null ? null : request.consistency();
    }

    @Override
    public String resolveScope() {
        RwSplitRequest request = request();
        return request == null ? null : request.scopeKey();
    }

    /** The request's instance if the request has one; never creates it. */
    RwSplitRequest request() {
        for (Context context : beanManager.getContexts(RequestScoped.class)) {
            if (context.isActive()) {
                return context.get(bean());
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private Bean<RwSplitRequest> bean() {
        Bean<RwSplitRequest> b = bean;
        if (b == null) {
            b = (Bean<RwSplitRequest>) beanManager.resolve(beanManager.getBeans(RwSplitRequest.class));
            bean = b;
        }
        return b;
    }
}
