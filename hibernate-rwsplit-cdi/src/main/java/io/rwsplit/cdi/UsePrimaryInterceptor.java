package io.rwsplit.cdi;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.rwsplit.UsePrimary;

/** Applies {@link UsePrimary}: the core annotation, made an interceptor binding by {@link RwSplitExtension}. */
@UsePrimary
@Interceptor
@Priority(RwSplitExtension.INTERCEPTOR_PRIORITY)
class UsePrimaryInterceptor {

    @Inject
    RoutingInvocation invocation;

    @AroundInvoke
    Object route(InvocationContext context) throws Exception {
        return invocation.around(context);
    }
}
