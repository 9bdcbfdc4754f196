package io.rwsplit.quarkus;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.rwsplit.UsePrimary;

/** Applies {@link UsePrimary}: the core annotation, made an interceptor binding by the extension's build step. */
@UsePrimary
@Interceptor
@Priority(RoutingInvocation.PRIORITY)
class UsePrimaryInterceptor {

    @Inject
    RoutingInvocation invocation;

    @AroundInvoke
    Object route(InvocationContext context) throws Exception {
        return invocation.around(context);
    }
}
