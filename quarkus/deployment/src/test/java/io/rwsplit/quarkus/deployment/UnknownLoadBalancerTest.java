package io.rwsplit.quarkus.deployment;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A load balancer the core does not have fails the start, naming the key, the value and the core's balancers. */
class UnknownLoadBalancerTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = BadConfiguration.app("quarkus.rwsplit.load-balancer", "fastest",
                    "invalid value 'fastest' for setting 'quarkus.rwsplit.load-balancer': expected one of round_robin,")
            .overrideConfigKey("quarkus.rwsplit.replicas", "jdbc:h2:mem:bad_config_replica;DB_CLOSE_DELAY=-1");

    @Test
    void theApplicationDoesNotStart() {
        fail("the application started");
    }
}
