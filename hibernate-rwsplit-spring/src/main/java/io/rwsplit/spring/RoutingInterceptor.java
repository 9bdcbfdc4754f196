package io.rwsplit.spring;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import io.rwsplit.UsePrimary;
import io.rwsplit.internal.route.RoutingFrame;
import io.rwsplit.internal.route.RoutingAnnotations;

/**
 * Applies {@code @ReadReplica}, {@code @UsePrimary} and {@code @ReadConsistency} to one bean's calls: enters the
 * method's frame, proceeds, leaves the frame (also when the call throws). Placed in front of the bean's other
 * advice, so a transaction that the call begins ({@code @Transactional}, Spring Data's read-only transactions)
 * begins under the intent. The frame of each method is resolved once.
 */
final class RoutingInterceptor implements MethodInterceptor {

    private final RoutingContext context;
    private final List<Class<?>> types;
    private final ConcurrentHashMap<Method, RoutingFrame> frames = new ConcurrentHashMap<>();

    /** @param types the bean's class and the interfaces its proxy implements, most specific first */
    RoutingInterceptor(RoutingContext context, List<Class<?>> types) {
        this.context = context;
        this.types = List.copyOf(types);
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        RoutingFrame frame = frames.computeIfAbsent(invocation.getMethod(), m -> RoutingAnnotations.resolve(types, m));
        if (frame.isEmpty()) {
            return invocation.proceed();
        }
        context.enter(frame);
        try {
            return invocation.proceed();
        }
        finally {
            context.exit();
        }
    }
}
