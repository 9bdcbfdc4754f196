package io.rwsplit.quarkus.deployment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationTransformation;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

/**
 * Copies interceptor bindings from interfaces to the classes that implement them, where CDI would not look: an
 * annotation on an interface goes to each implementing class that does not declare it, one on an interface method to
 * the implementing class's method of the same name and parameters (not to a default method the class does not
 * override: ArC reads no method-level bindings there, and the interface's class-level annotation covers it). Found once
 * from the index; the transformation only looks its declaration up.
 */
final class InterfaceBindings implements AnnotationTransformation {

    /** What to add, by class name, and by {@code class#method(descriptor)} for methods. */
    private final Map<String, List<AnnotationInstance>> additions;

    private InterfaceBindings(Map<String, List<AnnotationInstance>> additions) {
        this.additions = additions;
    }

    static InterfaceBindings of(IndexView index, List<DotName> bindings) {
        Map<String, List<AnnotationInstance>> additions = new HashMap<>();
        for (DotName binding : bindings) {
            for (AnnotationInstance instance : index.getAnnotations(binding)) {
                AnnotationTarget target = instance.target();
                if (target.kind() == AnnotationTarget.Kind.CLASS && target.asClass().isInterface()) {
                    for (ClassInfo c : implementations(index, target.asClass())) {
                        if (!c.hasDeclaredAnnotation(binding)) {
                            additions.computeIfAbsent(c.name().toString(), k -> new ArrayList<>())
                                    .add(AnnotationInstance.create(binding, c, instance.values()));
                        }
                    }
                }
                else if (target.kind() == AnnotationTarget.Kind.METHOD && target.asMethod().declaringClass().isInterface()) {
                    MethodInfo declared = target.asMethod();
                    for (ClassInfo c : implementations(index, declared.declaringClass())) {
                        MethodInfo implementing = implementing(index, c, declared);
                        if (implementing != null && !implementing.hasDeclaredAnnotation(binding)) {
                            additions.computeIfAbsent(key(implementing), k -> new ArrayList<>())
                                    .add(AnnotationInstance.create(binding, implementing, instance.values()));
                        }
                    }
                }
            }
        }
        return new InterfaceBindings(additions);
    }

    @Override
    public boolean supports(AnnotationTarget.Kind kind) {
        return kind == AnnotationTarget.Kind.CLASS || kind == AnnotationTarget.Kind.METHOD;
    }

    @Override
    public void apply(TransformationContext context) {
        AnnotationTarget target = context.declaration();
        List<AnnotationInstance> add = switch (target.kind()) {
            case CLASS -> additions.get(target.asClass().name().toString());
            case METHOD -> additions.get(key(target.asMethod()));
            default -> null;
        };
        if (add != null) {
            for (AnnotationInstance a : add) {
                if (!context.hasAnnotation(a.name())) {
                    context.add(a);
                }
            }
        }
    }

    private static List<ClassInfo> implementations(IndexView index, ClassInfo type) {
        List<ClassInfo> result = new ArrayList<>();
        for (ClassInfo c : index.getAllKnownImplementations(type.name())) {
            if (!c.isInterface()) {
                result.add(c);
            }
        }
        return result;
    }

    /** The method of {@code c} or its superclasses that implements {@code declared}, or null (a default method). */
    private static MethodInfo implementing(IndexView index, ClassInfo c, MethodInfo declared) {
        for (ClassInfo k = c; k != null; k = superclass(index, k)) {
            MethodInfo m = k.method(declared.name(), declared.parameterTypes().toArray(Type[]::new));
            if (m == null) {
                m = sameNameAndArity(k, declared);
            }
            if (m != null && !java.lang.reflect.Modifier.isAbstract(m.flags())) {
                return m;
            }
        }
        return null;
    }

    /** A generic interface method ({@code save(T)}) and its implementation ({@code save(Book)}): the only candidate. */
    private static MethodInfo sameNameAndArity(ClassInfo c, MethodInfo declared) {
        MethodInfo found = null;
        for (MethodInfo m : c.methods()) {
            if (m.name().equals(declared.name()) && m.parametersCount() == declared.parametersCount() && !m.isSynthetic()) {
                if (found != null) {
                    return null;
                }
                found = m;
            }
        }
        return found;
    }

    private static ClassInfo superclass(IndexView index, ClassInfo c) {
        DotName s = c.superName();
        return s == null || s.toString().equals("java.lang.Object") ? null : index.getClassByName(s);
    }

    private static String key(MethodInfo m) {
        return m.declaringClass().name() + "#" + m.name() + m.descriptorParameterTypes();
    }
}
