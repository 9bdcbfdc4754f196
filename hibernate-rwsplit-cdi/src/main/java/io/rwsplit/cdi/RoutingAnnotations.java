package io.rwsplit.cdi;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.rwsplit.ReadReplica;
import io.rwsplit.route.Intent;

/**
 * Finds what an intercepted method asks for. A method's own annotations (or those of the interface
 * method it implements, as on Jakarta Data repositories) win over its class's (or its interfaces');
 * {@code @ReadReplica} and {@code @UsePrimary} on the same level is an error. Resolved once per class and
 * method.
 */
final class RoutingAnnotations {

    private record Key(Class<?> type, Method method) {
    }

    private final ConcurrentHashMap<Key, RoutingFrame> frames = new ConcurrentHashMap<>();

    RoutingFrame frameOf(Class<?> type, Method method) {
        return frames.computeIfAbsent(new Key(type, method), k -> resolve(k.type(), k.method()));
    }

    static RoutingFrame resolve(Class<?> type, Method method) {
        Intent intent = intent(onMethod(type, method, ReadReplica.class), onMethod(type, method, UsePrimary.class),
                type, method);
        if (intent == null) {
            intent = intent(onType(type, ReadReplica.class), onType(type, UsePrimary.class), type, null);
        }
        Consistency consistency = onMethod(type, method, Consistency.class);
        if (consistency == null) {
            consistency = onType(type, Consistency.class);
        }
        return new RoutingFrame(intent, consistency == null ? null : consistency.value());
    }

    private static Intent intent(ReadReplica replica, UsePrimary primary, Class<?> type, Method method) {
        if (replica != null && primary != null) {
            throw new IllegalStateException("hibernate-rwsplit: @ReadReplica and @UsePrimary both on "
                    + (method != null ? method : type) + ": keep one");
        }
        return replica != null ? Intent.REPLICA : primary != null ? Intent.PRIMARY : null;
    }

    /** The annotation on the method, or on the same method of one of the type's interfaces. */
    static <A extends Annotation> A onMethod(Class<?> type, Method method, Class<A> annotation) {
        A found = method.getAnnotation(annotation);
        if (found != null) {
            return found;
        }
        for (Class<?> i : interfaces(type)) {
            try {
                found = i.getMethod(method.getName(), method.getParameterTypes()).getAnnotation(annotation);
            }
            catch (NoSuchMethodException e) {
                continue;
            }
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** The annotation on the type (and its superclasses when inherited), or on one of its interfaces. */
    static <A extends Annotation> A onType(Class<?> type, Class<A> annotation) {
        A found = type.getAnnotation(annotation);
        if (found != null) {
            return found;
        }
        for (Class<?> i : interfaces(type)) {
            found = i.getAnnotation(annotation);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** Every interface the type implements, directly or through superclasses and superinterfaces. */
    static Set<Class<?>> interfaces(Class<?> type) {
        Set<Class<?>> result = new LinkedHashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            collect(c.getInterfaces(), result);
        }
        return result;
    }

    private static void collect(Class<?>[] interfaces, Set<Class<?>> result) {
        for (Class<?> i : interfaces) {
            if (result.add(i)) {
                collect(i.getInterfaces(), result);
            }
        }
    }
}
