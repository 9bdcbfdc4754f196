package io.rwsplit.quarkus.deployment;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** Replicas for a persistence unit the application does not have fail the start, naming the key. */
class UnknownPersistenceUnitTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = BadConfiguration.app("quarkus.rwsplit.\"invoices\".replicas",
            "jdbc:h2:mem:invoices_replica", "quarkus.rwsplit.\"invoices\".replicas configures the persistence unit"
                    + " 'invoices', which does not exist");

    @Test
    void theApplicationDoesNotStart() {
        fail("the application started");
    }
}
