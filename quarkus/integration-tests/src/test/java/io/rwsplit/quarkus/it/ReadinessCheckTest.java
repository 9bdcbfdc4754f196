package io.rwsplit.quarkus.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** The readiness check {@code hibernate-rwsplit}, present because the application has quarkus-smallrye-health. */
@QuarkusTest
class ReadinessCheckTest {

    private static final String CHECK = "checks.find { it.name == 'hibernate-rwsplit' }.";

    @Test
    void readinessReportsThePrimaryAndEachReplica() {
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body(CHECK + "status", is("UP"))
                .body(CHECK + "data.primary", is("UP"))
                .body(CHECK + "data.replica1", startsWith("UP, lag "))
                .body(CHECK + "data.lostWriteFailovers", is(0));
    }
}
