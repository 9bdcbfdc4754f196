package io.rwsplit.cdi;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.configurator.AnnotatedTypeConfigurator;
import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.Interceptor;

import io.rwsplit.ReadConsistency;
import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;
import io.rwsplit.internal.route.RoutingAnnotations;

/**
 * Registers hibernate-rwsplit with the CDI container (found through {@code META-INF/services}; the jar
 * needs no {@code beans.xml} and works with annotated and "all" discovery alike):
 * <ul>
 *   <li>makes the core annotations {@link ReadReplica}, {@link UsePrimary} and {@link ReadConsistency} interceptor
 *       bindings;</li>
 *   <li>adds the interceptors and {@link RwSplitRequest}, {@link RwSplitPersistence}, {@link ReplicaStateEvents};</li>
 *   <li>copies {@code @ReadReplica}, {@code @UsePrimary} and {@code @ReadConsistency} from interface methods and
 *       interfaces to the bean classes implementing them, since CDI never inherits interceptor bindings
 *       from interfaces: this is what makes them work on Jakarta Data repository interfaces whose
 *       implementation Hibernate's annotation processor generates.</li>
 * </ul>
 */
public class RwSplitExtension implements Extension {

    /**
     * Before the {@code @Transactional} interceptors ({@code PLATFORM_BEFORE + 200}): a transaction that
     * begins inside a {@code @ReadReplica} call begins under its intent.
     */
    public static final int INTERCEPTOR_PRIORITY = Interceptor.Priority.PLATFORM_BEFORE + 100;

    private static final List<Class<? extends Annotation>> BINDINGS = RoutingAnnotations.ALL;

    private final List<Throwable> definitionErrors = new ArrayList<>();

    void register(@Observes BeforeBeanDiscovery discovery) {
        // the core annotations become bindings; their levels must not take part in binding resolution
        for (Class<? extends Annotation> binding : BINDINGS) {
            discovery.configureInterceptorBinding(binding).methods()
                    .forEach(member -> member.add(Nonbinding.Literal.INSTANCE));
        }
        for (Class<?> type : List.of(RwSplitRequest.class, RwSplitPersistence.class, RoutingInvocation.class,
                ReplicaStateEvents.class,
                ReadReplicaInterceptor.class, UsePrimaryInterceptor.class, ConsistencyInterceptor.class)) {
            discovery.addAnnotatedType(type, RwSplitExtension.class.getName() + "." + type.getSimpleName());
        }
    }

    /** Copies the bindings of interfaces to the bean class, then validates the annotations of an annotated class. */
    <T> void copyBindingsFromInterfaces(@Observes ProcessAnnotatedType<T> event) {
        AnnotatedType<T> type = event.getAnnotatedType();
        Class<T> javaClass = type.getJavaClass();
        if (javaClass.isInterface() || javaClass.isAnnotation() || javaClass.isEnum()
                || javaClass.getName().startsWith("java.") || javaClass.getName().startsWith("jakarta.")) {
            return;
        }
        AnnotatedTypeConfigurator<T> configurator = null;
        boolean annotated = false;
        for (Class<? extends Annotation> binding : BINDINGS) {
            if (!type.isAnnotationPresent(binding)) {
                Annotation inherited = RoutingAnnotations.onType(javaClass, binding);
                if (inherited != null) {
                    annotated = true;
                    configurator = configurator != null ? configurator : event.configureAnnotatedType();
                    configurator.add(inherited);
                }
            }
        }
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            Method javaMethod = method.getJavaMember();
            if (Modifier.isStatic(javaMethod.getModifiers()) || javaMethod.getDeclaringClass().isInterface()) {
                continue;
            }
            for (Class<? extends Annotation> binding : BINDINGS) {
                if (method.isAnnotationPresent(binding)) {
                    annotated = true;
                    continue;
                }
                Annotation fromInterface = RoutingAnnotations.onMethod(List.of(javaClass), javaMethod, binding);
                if (fromInterface != null) {
                    annotated = true;
                    configurator = configurator != null ? configurator : event.configureAnnotatedType();
                    configurator.filterMethods(m -> m.getJavaMember().equals(javaMethod))
                            .forEach(m -> m.add(fromInterface));
                }
            }
        }
        if ((annotated || BINDINGS.stream().anyMatch(type::isAnnotationPresent))
                && !type.isAnnotationPresent(Interceptor.class)) {
            validate(javaClass);
        }
    }

    /** Contradictory annotations and unknown consistency levels fail the deployment, not the first call. */
    private void validate(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                if (!Modifier.isStatic(method.getModifiers()) && !Modifier.isPrivate(method.getModifiers())) {
                    try {
                        RoutingAnnotations.resolve(List.of(type), method);
                    }
                    catch (IllegalStateException e) {
                        definitionErrors.add(e);
                    }
                }
            }
        }
    }

    void reportErrors(@Observes AfterBeanDiscovery event) {
        definitionErrors.forEach(event::addDefinitionError);
        definitionErrors.clear();
    }
}
