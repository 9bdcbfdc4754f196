package io.rwsplit.cdi;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.rwsplit.ReadReplica;

/** Applies {@link io.rwsplit.ReadReplica}: the core annotation, made an interceptor binding by {@link RwSplitExtension}. */
@ReadReplica
@Interceptor
@Priority(RwSplitExtension.INTERCEPTOR_PRIORITY)
class ReadReplicaInterceptor {

    @Inject
    RoutingInvocation invocation;

    @AroundInvoke
    Object route(InvocationContext context) throws Exception {
        return invocation.around(context);
    }
}
