package io.rwsplit.quarkus;

import java.util.List;

import io.quarkus.runtime.annotations.Recorder;
import io.rwsplit.internal.route.RoutingAnnotations;

/** Checks the routing annotations of the application's beans when the application starts, not at the first call. */
@Recorder
public class RoutingAnnotationsRecorder {

    /**
     * @param beanClasses the bean classes that carry {@code @ReadReplica}, {@code @UsePrimary} or
     *                    {@code @ReadConsistency} on the class or on a method
     * @throws IllegalStateException naming the first method whose annotations contradict each other or name a
     *                               level that does not parse
     */
    public void validate(List<String> beanClasses) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (String name : beanClasses) {
            try {
                RoutingAnnotations.validate(List.of(Class.forName(name, false, loader)));
            }
            catch (ClassNotFoundException e) {
                throw new IllegalStateException("hibernate-rwsplit: bean class " + name + " not found", e);
            }
        }
    }
}
