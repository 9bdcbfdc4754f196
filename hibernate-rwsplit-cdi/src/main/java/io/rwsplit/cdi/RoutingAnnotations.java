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

    /** @throws IllegalStateException for contradictory annotations or a level that does not parse */
    static RoutingFrame resolve(Class<?> type, Method method) {
        Intent intent = intent(onMethod(type, method, ReadReplica.class), onMethod(type, method, UsePrimary.class),
                type, method);
        if (intent == null) {
            intent = intent(onType(type, ReadReplica.class), onType(type, UsePrimary.class), type, null);
        }
        io.rwsplit.Consistency consistency = consistency(onMethod(type, method, Consistency.class),
                onMethod(type, method, ReadReplica.class), method.toString());
        if (consistency == null) {
            consistency = consistency(onType(type, Consistency.class), onType(type, ReadReplica.class), type.getName());
        }
        return new RoutingFrame(intent, consistency);
    }

    /** The level named at one place by {@code @Consistency} or {@code @ReadReplica(consistency)}, or null. */
    private static io.rwsplit.Consistency consistency(Consistency annotation, ReadReplica replica, String where) {
        String text = annotation != null ? annotation.value() : null;
        if (replica != null && !replica.consistency().isEmpty()) {
            if (text != null && !text.equals(replica.consistency())) {
                throw new IllegalStateException("hibernate-rwsplit: @Consistency(\"" + text + "\") and @ReadReplica(consistency = \""
                        + replica.consistency() + "\") disagree on " + where + ": keep one");
            }
            text = replica.consistency();
        }
        if (text == null) {
            return null;
        }
        try {
            return io.rwsplit.Consistency.parse(text);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalStateException("hibernate-rwsplit: invalid consistency on " + where + ": " + e.getMessage(), e);
        }
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
