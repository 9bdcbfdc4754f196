package io.rwsplit.quarkus.deployment;

import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.resteasy.reactive.spi.ContainerRequestFilterBuildItem;
import io.quarkus.resteasy.reactive.spi.ContainerResponseFilterBuildItem;

/**
 * The request scope of Quarkus REST requests (the consistency cookie, the primary for unsafe methods), only when the
 * application has {@code quarkus-rest}. RESTEasy Classic ({@code quarkus-resteasy}) is not supported.
 */
class RestRequestScopeProcessor {

    /** By name: the classes need the JAX-RS and Vert.x Web APIs, optional dependencies of the runtime module. */
    private static final String FILTER = "io.rwsplit.quarkus.RestConsistencyFilter";
    private static final String REQUESTS = "io.rwsplit.quarkus.RestRequests";

    /** {@code jakarta.ws.rs.Priorities.USER}: after the authentication filters, so that the principal is known. */
    private static final int PRIORITY = 5000;

    @BuildStep
    void requestScope(Capabilities capabilities, BuildProducer<AdditionalBeanBuildItem> beans,
                      BuildProducer<ContainerRequestFilterBuildItem> requestFilters,
                      BuildProducer<ContainerResponseFilterBuildItem> responseFilters) {
        if (!capabilities.isPresent(Capability.REST)) {
            return;
        }
        beans.produce(AdditionalBeanBuildItem.unremovableOf(REQUESTS));
        requestFilters.produce(new ContainerRequestFilterBuildItem.Builder(FILTER).setPriority(PRIORITY).build());
        responseFilters.produce(new ContainerResponseFilterBuildItem.Builder(FILTER).setPriority(PRIORITY).build());
    }
}
