package io.rwsplit.quarkus;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.rwsplit.ReadConsistency;

/** Applies {@link ReadConsistency}: the core annotation, made an interceptor binding by the extension's build step. */
@ReadConsistency("")
@Interceptor
@Priority(RoutingInvocation.PRIORITY)
class ConsistencyInterceptor {

    @Inject
    RoutingInvocation invocation;

    @AroundInvoke
    Object route(InvocationContext context) throws Exception {
        return invocation.around(context);
    }
}
