package io.rwsplit.internal.route;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.rwsplit.Consistency;
import io.rwsplit.Intent;
import io.rwsplit.ReadConsistency;
import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/**
 * The one resolver of {@link ReadReplica}, {@link UsePrimary} and {@link ReadConsistency}, used by the Spring and
 * CDI modules. A bean is described by its types: its class and, for a proxy such as a repository, the interfaces
 * it implements. A method's own annotations (on the method, or on the method of the same signature in one of the
 * types, their superclasses and their interfaces) win over the types' (on a type, its superclasses or its
 * interfaces). {@code @ReadReplica} and {@code @UsePrimary} at the same level is an error, as are two different
 * levels at the same level and a level that does not parse. Runs when a bean is set up, never per statement.
 */
public final class RoutingAnnotations {

    /** The annotations this class resolves. */
    public static final List<Class<? extends Annotation>> ALL = List.of(ReadReplica.class, UsePrimary.class,
            ReadConsistency.class);

    private RoutingAnnotations() {
    }

    /** Whether a method or type of {@code types} (or of their supertypes) carries one of the annotations. */
    public static boolean annotated(List<Class<?>> types) {
        for (Class<?> type : types) {
            for (Class<?> t : hierarchy(type)) {
                if (isPlatform(t)) {
                    continue;
                }
                for (Class<? extends Annotation> a : ALL) {
                    if (t.isAnnotationPresent(a)) {
                        return true;
                    }
                }
                for (Method m : t.getDeclaredMethods()) {
                    for (Class<? extends Annotation> a : ALL) {
                        if (m.isAnnotationPresent(a)) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    /**
     * Resolves every public and protected instance method of {@code types}, so that a contradiction fails when
     * the bean is set up.
     *
     * @throws IllegalStateException naming the first method whose annotations contradict each other
     */
    public static void validate(List<Class<?>> types) {
        for (Class<?> type : types) {
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Method m : c.getDeclaredMethods()) {
                    if (!Modifier.isStatic(m.getModifiers()) && !Modifier.isPrivate(m.getModifiers()) && !m.isSynthetic()) {
                        resolve(types, m);
                    }
                }
            }
            for (Method m : type.getMethods()) {
                if (!Modifier.isStatic(m.getModifiers()) && m.getDeclaringClass() != Object.class) {
                    resolve(types, m);
                }
            }
        }
    }

    /**
     * What a call of {@code method} on a bean of {@code types} asks.
     *
     * @throws IllegalStateException for contradictory annotations or a level that does not parse, naming the
     *                               method or type
     */
    public static RoutingFrame resolve(List<Class<?>> types, Method method) {
        Intent intent = intent(onMethod(types, method, ReadReplica.class), onMethod(types, method, UsePrimary.class),
                method);
        Consistency consistency = consistency(onMethod(types, method, ReadConsistency.class),
                onMethod(types, method, ReadReplica.class), method.toString());
        for (Class<?> type : types) {
            if (intent == null) {
                intent = intent(onType(type, ReadReplica.class), onType(type, UsePrimary.class), type);
            }
            if (consistency == null) {
                consistency = consistency(onType(type, ReadConsistency.class), onType(type, ReadReplica.class),
                        type.getName());
            }
        }
        return new RoutingFrame(intent, consistency);
    }

    private static Intent intent(ReadReplica replica, UsePrimary primary, Object where) {
        if (replica != null && primary != null) {
            throw new IllegalStateException("hibernate-rwsplit: @ReadReplica and @UsePrimary both on " + where + ": keep one");
        }
        return replica != null ? Intent.REPLICA : primary != null ? Intent.PRIMARY : null;
    }

    /** The level named at one place by {@code @ReadConsistency} or {@code @ReadReplica(consistency)}, or null. */
    private static Consistency consistency(ReadConsistency annotation, ReadReplica replica, String where) {
        String text = annotation != null ? annotation.value() : null;
        if (replica != null && !replica.consistency().isEmpty()) {
            if (text != null && !text.equals(replica.consistency())) {
                throw new IllegalStateException("hibernate-rwsplit: @ReadConsistency(\"" + text
                        + "\") and @ReadReplica(consistency = \"" + replica.consistency() + "\") disagree on " + where
                        + ": keep one");
            }
            text = replica.consistency();
        }
        if (text == null) {
            return null;
        }
        try {
            return Consistency.parse(text);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalStateException("hibernate-rwsplit: invalid consistency on " + where + ": " + e.getMessage(), e);
        }
    }

    /**
     * The annotation on the method, or on the method of the same signature in one of the types, their
     * superclasses or their interfaces; {@code null} when none has it.
     */
    public static <A extends Annotation> A onMethod(List<Class<?>> types, Method method, Class<A> annotation) {
        A found = method.getAnnotation(annotation);
        if (found != null) {
            return found;
        }
        for (Class<?> type : types) {
            for (Class<?> t : hierarchy(type)) {
                try {
                    Method same = t.getDeclaredMethod(method.getName(), method.getParameterTypes());
                    found = same.getAnnotation(annotation);
                }
                catch (NoSuchMethodException e) {
                    continue;
                }
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** The annotation on the type or its superclasses, else on one of its interfaces; {@code null} when none has it. */
    public static <A extends Annotation> A onType(Class<?> type, Class<A> annotation) {
        for (Class<?> t : hierarchy(type)) {
            A found = t.getAnnotation(annotation);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** JDK, Jakarta and Spring types never carry the annotations: not scanned. */
    private static boolean isPlatform(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("jakarta.") || name.startsWith("org.springframework.");
    }

    /** The type, its superclasses, then every interface they implement (superinterfaces too). */
    private static Set<Class<?>> hierarchy(Class<?> type) {
        Set<Class<?>> result = new LinkedHashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            result.add(c);
        }
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
