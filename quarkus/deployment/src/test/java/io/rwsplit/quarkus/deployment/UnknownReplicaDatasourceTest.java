package io.rwsplit.quarkus.deployment;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** A replica datasource that is not configured fails the start, naming the key and the value. */
class UnknownReplicaDatasourceTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = BadConfiguration.app("quarkus.rwsplit.replica-datasources", "replica-x",
            "quarkus.rwsplit.replica-datasources=replica-x: 'replica-x': no datasource of that name is configured");

    @Test
    void theApplicationDoesNotStart() {
        fail("the application started");
    }
}
