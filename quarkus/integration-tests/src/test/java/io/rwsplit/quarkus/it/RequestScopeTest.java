package io.rwsplit.quarkus.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.Cookie;
import io.restassured.response.Response;
import io.rwsplit.spi.Clock;
import io.rwsplit.web.ConsistencyCookie;
import io.rwsplit.web.Signing;

/**
 * The request scope of Quarkus REST requests: person 1 is "primary-alice" on the primary and "replica-alice" on the
 * replica, and a row a test adds exists on the primary only, so each answer tells which server gave it.
 */
@QuarkusTest
@TestProfile(RequestScopeProfile.class)
class RequestScopeTest {

    private static final String COOKIE = "RWSPLIT";

    @Test
    void getAfterPostWithTheCookieReadsThePrimary() {
        String cookie = given().post("/people/101?name=primary-frank&read=1").then().statusCode(200)
                .extract().cookie(COOKIE);
        assertNotNull(cookie, "a request that wrote gets the cookie");

        given().cookie(COOKIE, cookie).get("/people/101").then().statusCode(200).body(equalTo("primary-frank"));
    }

    @Test
    void getWithoutCookieReadsTheReplica() {
        given().post("/people/102?name=primary-grace&read=1").then().statusCode(200);

        given().get("/people/1").then().statusCode(200).body(equalTo("replica-alice"));
        given().get("/people/102").then().statusCode(404);   // the replica never has it
    }

    @Test
    void cookieSignedByAnotherKeyReadsThePrimaryAndIsReplaced() {
        ConsistencyCookie otherInstance = new ConsistencyCookie(
                new Signing("the-key-of-another-instance-0123456789".getBytes(StandardCharsets.UTF_8)),
                Duration.ofMinutes(5), Clock.SYSTEM);
        String foreign = otherInstance.encode(ConsistencyCookie.newScope(), null);

        Response response = given().cookie(COOKIE, foreign).get("/people/1");

        assertEquals(200, response.statusCode());
        assertEquals("primary-alice", response.body().asString());
        String replaced = response.cookie(COOKIE);
        assertNotNull(replaced, "an unverified cookie is replaced by this instance's");
        assertNotEquals(foreign, replaced);
        assertEquals(ConsistencyCookie.Status.VALID, ours().decode(replaced).status());
    }

    @Test
    void postRunsItsReadsOnThePrimary() {
        given().post("/people/103?name=primary-heidi&read=1").then().statusCode(200).body(equalTo("primary-alice"));
    }

    @Test
    void theCookieIsHttpOnlyLaxForTheWholeSiteAndLivesFiveMinutes() {
        Cookie cookie = given().post("/people/104?name=primary-ivan&read=1").detailedCookie(COOKIE);

        assertTrue(cookie.isHttpOnly());
        assertFalse(cookie.isSecured(), "plain HTTP: not Secure");
        assertEquals("/", cookie.getPath());
        assertEquals("Lax", cookie.getSameSite());
        assertEquals(300, cookie.getMaxAge());
        ConsistencyCookie.Decoded decoded = ours().decode(cookie.getValue());
        assertEquals(ConsistencyCookie.Status.VALID, decoded.status());
        assertNotNull(decoded.token(), "the cookie carries the token of the request's write");
    }

    @Test
    void aRequestThatWroteNothingGetsNoCookie() {
        assertNull(given().get("/people/1").cookie(COOKIE));
    }

    /** The cookie as this application signs it (the profile's secret). */
    private static ConsistencyCookie ours() {
        return new ConsistencyCookie(new Signing(RequestScopeProfile.SECRET.getBytes(StandardCharsets.UTF_8)),
                Duration.ofMinutes(5), Clock.SYSTEM);
    }
}
