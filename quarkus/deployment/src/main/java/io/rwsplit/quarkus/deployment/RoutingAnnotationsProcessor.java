package io.rwsplit.quarkus.deployment;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AnnotationsTransformerBuildItem;
import io.quarkus.arc.deployment.BeanArchiveIndexBuildItem;
import io.quarkus.arc.deployment.InterceptorBindingRegistrarBuildItem;
import io.quarkus.arc.processor.InterceptorBindingRegistrar;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.rwsplit.ReadConsistency;
import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;
import io.rwsplit.quarkus.RoutingAnnotationsRecorder;

/**
 * {@code @ReadReplica}, {@code @UsePrimary} and {@code @ReadConsistency} on CDI beans: the core's annotations become
 * ArC interceptor bindings as they are (their levels do not take part in binding resolution), the extension's
 * interceptors become beans, the annotations of interfaces are copied to the classes that implement them (CDI never
 * inherits interceptor bindings from interfaces), and the beans that carry the annotations are checked when the
 * application starts.
 */
class RoutingAnnotationsProcessor {

    private static final String RUNTIME_PACKAGE = "io.rwsplit.quarkus.";

    private static final List<DotName> ANNOTATIONS = List.of(DotName.createSimple(ReadReplica.class),
            DotName.createSimple(UsePrimary.class), DotName.createSimple(ReadConsistency.class));

    private static final DotName INTERCEPTOR = DotName.createSimple("jakarta.interceptor.Interceptor");

    @BuildStep
    AdditionalIndexedClassesBuildItem indexTheAnnotations() {
        return new AdditionalIndexedClassesBuildItem(ReadReplica.class.getName(), UsePrimary.class.getName(),
                ReadConsistency.class.getName());
    }

    @BuildStep
    InterceptorBindingRegistrarBuildItem makeTheAnnotationsInterceptorBindings() {
        return new InterceptorBindingRegistrarBuildItem(new InterceptorBindingRegistrar() {
            @Override
            public List<InterceptorBinding> getAdditionalBindings() {
                return List.of(InterceptorBinding.of(ReadReplica.class, Set.of("consistency")),
                        InterceptorBinding.of(UsePrimary.class),
                        InterceptorBinding.of(ReadConsistency.class, Set.of("value")));
            }
        });
    }

    @BuildStep
    AdditionalBeanBuildItem interceptors() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(RUNTIME_PACKAGE + "ReadReplicaInterceptor", RUNTIME_PACKAGE + "UsePrimaryInterceptor",
                        RUNTIME_PACKAGE + "ConsistencyInterceptor", RUNTIME_PACKAGE + "RoutingInvocation",
                        RUNTIME_PACKAGE + "AnnotatedCalls")
                .setUnremovable()
                .build();
    }

    /**
     * {@code @ReadReplica}, {@code @UsePrimary} and {@code @ReadConsistency} on an interface or on its methods apply to
     * the beans implementing it: a Jakarta Data repository (whose implementation Hibernate's annotation processor
     * generates), or any interface a bean implements. Which annotation applies to a call is decided when it is made, from
     * the class and its interfaces, as the CDI module does; this only makes ArC intercept the calls.
     */
    @BuildStep
    AnnotationsTransformerBuildItem copyTheAnnotationsOfInterfaces(CombinedIndexBuildItem index) {
        return new AnnotationsTransformerBuildItem(InterfaceBindings.of(index.getIndex(), ANNOTATIONS));
    }

    /** Contradictory annotations and levels that do not parse fail the start, naming the method, not its first call. */
    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    void validateTheAnnotatedBeans(RoutingAnnotationsRecorder recorder, BeanArchiveIndexBuildItem beans) {
        IndexView index = beans.getIndex();
        Set<String> classes = new TreeSet<>();
        for (DotName annotation : ANNOTATIONS) {
            for (AnnotationInstance instance : index.getAnnotations(annotation)) {
                ClassInfo type = declaringClass(instance.target());
                if (type == null || type.isAnnotation() || type.hasDeclaredAnnotation(INTERCEPTOR)) {
                    continue;
                }
                if (!type.isInterface()) {
                    classes.add(type.name().toString());
                }
                else {
                    for (ClassInfo implementation : index.getAllKnownImplementations(type.name())) {
                        if (!implementation.isInterface() && !java.lang.reflect.Modifier.isAbstract(implementation.flags())) {
                            classes.add(implementation.name().toString());
                        }
                    }
                }
            }
        }
        if (!classes.isEmpty()) {
            recorder.validate(List.copyOf(classes));
        }
    }

    private static ClassInfo declaringClass(AnnotationTarget target) {
        return switch (target.kind()) {
            case CLASS -> target.asClass();
            case METHOD -> target.asMethod().declaringClass();
            default -> null;
        };
    }
}
