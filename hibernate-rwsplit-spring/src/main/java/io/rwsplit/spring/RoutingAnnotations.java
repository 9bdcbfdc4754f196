package io.rwsplit.spring;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

import io.rwsplit.ReadReplica;
import io.rwsplit.route.Intent;

/**
 * Finds what a method of a bean asks for. The bean is described by its types: its class and, for a proxy
 * such as a Spring Data repository, the interfaces the proxy implements. A method's own annotations (on the
 * method, or on the same method of one of the types and their interfaces) win over the types' annotations;
 * {@code @ReadReplica} and {@code @UsePrimary} at the same level is an error, as is a level that does not parse.
 */
final class RoutingAnnotations {

    private static final List<Class<? extends Annotation>> ALL = List.of(ReadReplica.class, UsePrimary.class, Consistency.class);

    private RoutingAnnotations() {
    }

    /** Whether any method or type of {@code types} carries one of the annotations. */
    static boolean annotated(List<Class<?>> types) {
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

    /** JDK, Jakarta and Spring types never carry the annotations: not scanned. */
    private static boolean isPlatform(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("jakarta.") || name.startsWith("org.springframework.");
    }

    /** Resolves every public method of {@code types}, so that a contradiction fails at startup. */
    static void validate(List<Class<?>> types) {
        for (Class<?> type : types) {
            for (Method m : type.getMethods()) {
                if (!Modifier.isStatic(m.getModifiers()) && m.getDeclaringClass() != Object.class) {
                    resolve(types, m);
                }
            }
        }
    }

    /** @throws IllegalStateException for contradictory annotations or a level that does not parse */
    static RoutingFrame resolve(List<Class<?>> types, Method method) {
        Intent intent = intent(onMethod(types, method, ReadReplica.class), onMethod(types, method, UsePrimary.class), method);
        io.rwsplit.Consistency consistency = consistency(onMethod(types, method, Consistency.class),
                onMethod(types, method, ReadReplica.class), method.toString());
        for (Class<?> type : types) {
            if (intent == null) {
                intent = intent(onType(type, ReadReplica.class), onType(type, UsePrimary.class), type);
            }
            if (consistency == null) {
                consistency = consistency(onType(type, Consistency.class), onType(type, ReadReplica.class), type.getName());
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

    /** The annotation on the method, or on the method of the same signature in one of the types or their interfaces. */
    private static <A extends Annotation> A onMethod(List<Class<?>> types, Method method, Class<A> annotation) {
        A found = AnnotatedElementUtils.findMergedAnnotation(method, annotation);
        if (found != null) {
            return found;
        }
        for (Class<?> type : types) {
            for (Class<?> t : hierarchy(type)) {
                Method same = ClassUtils.getMethodIfAvailable(t, method.getName(), method.getParameterTypes());
                if (same != null && !same.equals(method)) {
                    found = AnnotatedElementUtils.findMergedAnnotation(same, annotation);
                    if (found != null) {
                        return found;
                    }
                }
            }
        }
        return null;
    }

    /** The annotation on the type, its superclasses or its interfaces. */
    private static <A extends Annotation> A onType(Class<?> type, Class<A> annotation) {
        return AnnotatedElementUtils.findMergedAnnotation(type, annotation);
    }

    /** The type, its superclasses and every interface they implement. */
    private static Set<Class<?>> hierarchy(Class<?> type) {
        Set<Class<?>> result = new LinkedHashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            result.add(c);
        }
        result.addAll(ClassUtils.getAllInterfacesForClassAsSet(type));
        return result;
    }
}
