package io.rwsplit.cdi;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.context.spi.Context;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.rwsplit.Intent;
import io.rwsplit.internal.route.RoutingAnnotations;
import io.rwsplit.internal.route.RoutingFrame;

/**
 * What the three interceptors do: push the frame of the intercepted method on the request's stack,
 * proceed, pop it (also when the call throws). Where no request context is active (a scheduled task, a
 * message listener in plain CDI) one is activated for the duration of the outermost call.
 * <p>
 * Inside a JTA transaction begun before the call, {@code @ReadReplica} does not apply: the core decides
 * the kind of a JTA transaction at its first statement, and a transaction begun outside the annotation is
 * read-write, as a resource-local one is. (The interceptors run before {@code @Transactional}, so a
 * transaction that the annotated method itself begins starts under the annotation.)
 */
@ApplicationScoped
class RoutingInvocation {

    private record Key(Class<?> type, java.lang.reflect.Method method) {
    }

    /** The frame of each intercepted class and method, resolved once. */
    private final java.util.concurrent.ConcurrentHashMap<Key, RoutingFrame> frames = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile Optional<TransactionSynchronizationRegistry> registry;

    @Inject
    BeanManager beanManager;

    @Inject
    RwSplitRequest request;

    @Inject
    Instance<RequestContextController> controllers;

    @Inject
    Instance<TransactionSynchronizationRegistry> transactions;

    Object around(InvocationContext invocation) throws Exception {
        RoutingFrame frame = frames.computeIfAbsent(new Key(invocation.getTarget().getClass(), invocation.getMethod()),
                k -> RoutingAnnotations.resolve(List.of(k.type()), k.method()));
        if (frame.intent() == Intent.REPLICA && inTransaction()) {
            frame = frame.withoutIntent();
        }
        RequestContextController controller = requestContextActive() ? null : controllers.get();
        if (controller != null) {
            controller.activate();
        }
        try {
            request.push(frame);
            try {
                return invocation.proceed();
            }
            finally {
                request.pop();
            }
        }
        finally {
            if (controller != null) {
                controller.deactivate();
                controllers.destroy(controller);
            }
        }
    }

    private boolean inTransaction() {
        TransactionSynchronizationRegistry registry = registry();
        return registry != null && registry.getTransactionKey() != null;
    }

    /** The container's registry, looked up once; {@code null} without JTA. */
    private TransactionSynchronizationRegistry registry() {
        Optional<TransactionSynchronizationRegistry> r = registry;
        if (r == null) {
            r = transactions.isResolvable() ? Optional.of(transactions.get()) : Optional.empty();
            registry = r;
        }
        return r.orElse(null);
    }

    private boolean requestContextActive() {
        for (Context context : beanManager.getContexts(RequestScoped.class)) {
            if (context.isActive()) {
                return true;
            }
        }
        return false;
    }
}
