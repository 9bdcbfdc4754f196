package io.rwsplit.quarkus.deployment;

import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.pkg.steps.NativeOrNativeSourcesBuild;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Native mode is not supported: a native build (or a build of native sources) stops at once with a message that says
 * so, rather than an image that fails at run time. The extension has never been built into a native image (the
 * core's classes are not registered for reflection or run-time initialisation, its replica pools are HikariCP's);
 * JVM mode is what is tested.
 */
class NativeModeProcessor {

    static final String MESSAGE = "hibernate-rwsplit-quarkus does not support native mode: build the application in"
            + " JVM mode (without -Dnative / quarkus.native.enabled=true), or remove io.rwsplit:hibernate-rwsplit-quarkus"
            + " from the native build. Read replicas are routed in JVM mode only.";

    @BuildStep(onlyIf = NativeOrNativeSourcesBuild.class)
    void refuseANativeBuild(ValidationPhaseBuildItem validation,
                            BuildProducer<ValidationPhaseBuildItem.ValidationErrorBuildItem> errors) {
        errors.produce(new ValidationPhaseBuildItem.ValidationErrorBuildItem(new ConfigurationException(MESSAGE)));
    }
}
