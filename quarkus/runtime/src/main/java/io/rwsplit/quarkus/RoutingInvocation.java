package io.rwsplit.quarkus;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.rwsplit.Intent;
import io.rwsplit.internal.route.RoutingAnnotations;
import io.rwsplit.internal.route.RoutingFrame;

/**
 * What the three interceptors do, as the CDI module does it: push the frame of the intercepted method on the
 * request's {@link AnnotatedCalls}, proceed, pop it (also when the call throws). Where no request context is active
 * (a scheduled method, a test, a message consumer) one is activated for the outermost call and terminated after it,
 * which also closes the request-scoped Hibernate session it opened.
 * <p>
 * The interceptors run before {@code @Transactional} ({@link #PRIORITY}), so a JTA transaction that the annotated
 * method itself begins begins under its intent: a {@code @ReadReplica @Transactional} method is a read-only by
 * preference transaction. Inside a transaction begun before the call, {@code @ReadReplica} does not apply (the core
 * decided the transaction's kind at its first statement); its level still does.
 */
@Singleton
class RoutingInvocation {

    /** Before Narayana's {@code @Transactional} interceptors ({@code PLATFORM_BEFORE + 200}). */
    static final int PRIORITY = Interceptor.Priority.PLATFORM_BEFORE + 100;

    private record Key(Class<?> type, Method method) {
    }

    /** The frame of each intercepted class and method, resolved at its first call. */
    private final ConcurrentHashMap<Key, RoutingFrame> frames = new ConcurrentHashMap<>();

    @Inject
    AnnotatedCalls calls;

    @Inject
    TransactionSynchronizationRegistry transactions;

    Object around(InvocationContext invocation) throws Exception {
        RoutingFrame frame = frames.computeIfAbsent(new Key(invocation.getTarget().getClass(), invocation.getMethod()),
                k -> RoutingAnnotations.resolve(List.of(k.type()), k.method()));
        if (frame.intent() == Intent.REPLICA && transactions.getTransactionKey() != null) {
            frame = frame.withoutIntent();
        }
        ManagedContext request = Arc.container().requestContext();
        if (request.isActive()) {
            return proceed(frame, invocation);
        }
        request.activate();
        try {
            return proceed(frame, invocation);
        }
        finally {
            request.terminate();
        }
    }

    private Object proceed(RoutingFrame frame, InvocationContext invocation) throws Exception {
        calls.push(frame);
        try {
            return invocation.proceed();
        }
        finally {
            calls.pop();
        }
    }
}
