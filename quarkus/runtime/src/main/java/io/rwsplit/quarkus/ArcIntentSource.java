package io.rwsplit.quarkus;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableBean;
import io.quarkus.arc.ManagedContext;
import io.rwsplit.Consistency;
import io.rwsplit.Intent;
import io.rwsplit.spi.RoutingIntentSource;

/**
 * The core's view of the current request's {@link AnnotatedCalls} ({@code hibernate.rwsplit.intent_source}): read
 * once per statement on the statement's thread. It never creates the request's instance and answers "nothing asked"
 * where no request context is active or no annotated call is in progress.
 */
final class ArcIntentSource implements RoutingIntentSource {

    private volatile InjectableBean<AnnotatedCalls> bean;

    @Override
    public Intent currentIntent() {
        AnnotatedCalls calls = calls();
        return calls == null ? Intent.NONE : calls.intent();
    }

    @Override
    public Consistency currentConsistency() {
        AnnotatedCalls calls = calls();
        return calls == null ? null : calls.consistency();
    }

    private AnnotatedCalls calls() {
        ManagedContext request = Arc.container().requestContext();
        return request.isActive() ? request.get(bean()) : null;
    }

    private InjectableBean<AnnotatedCalls> bean() {
        InjectableBean<AnnotatedCalls> b = bean;
        if (b == null) {
            b = Arc.container().instance(AnnotatedCalls.class).getBean();
            bean = b;
        }
        return b;
    }
}
