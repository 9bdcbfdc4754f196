package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/**
 * Web requests of a real Spring Boot application (Tomcat on a random port, H2 primary and replica): unsafe methods
 * read the primary, safe ones the replica; a request that wrote sets the signed HttpOnly cookie, one that did not
 * sets none; route log lines carry the request id.
 */
class WebRequestTest {

    private static int port;

    @BeforeAll
    static void start() throws SQLException {
        port = H2App.get().port;
    }

    @Test
    void unsafeMethodsReadThePrimaryAndSafeOnesTheReplica() {
        Http http = new Http("RWSPLIT");
        assertEquals("replica", http.get(port, "/whoami").body());
        assertEquals("primary", http.post(port, "/whoami").body());
    }

    @Test
    void aRequestThatWroteSetsASignedHttpOnlyCookieAndOtherRequestsSetNone() {
        Http http = new Http("RWSPLIT");
        HttpResponse<String> read = http.get(port, "/whoami");
        assertTrue(http.setCookieHeader(read).isEmpty(), "a request that did not write sets no cookie");
        HttpResponse<String> created = http.post(port, "/parents", "name", "ada");
        assertEquals(303, created.statusCode());
        String header = http.setCookieHeader(created).orElseThrow(() -> new AssertionError("no consistency cookie"));
        assertTrue(header.contains("HttpOnly"), header);
        assertTrue(header.contains("SameSite=Lax"), header);
        assertTrue(header.contains("Max-Age=300"), header);
        assertEquals(200, http.get(port, created.headers().firstValue("Location").orElseThrow()).statusCode());
    }

    @Test
    void routeLogLinesCarryTheRequestId() {
        Logger route = (Logger) LoggerFactory.getLogger("io.rwsplit.route");
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        route.addAppender(events);
        try {
            route.setLevel(Level.DEBUG);
            new Http("RWSPLIT").get(port, "/whoami", "X-Request-Id", "req-42");
        }
        finally {
            route.detachAppender(events);
        }
        List<ILoggingEvent> decisions = events.list.stream().filter(e -> e.getFormattedMessage().contains("select name from node")).toList();
        assertFalse(decisions.isEmpty(), "no route log line");
        decisions.forEach(e -> assertEquals("req-42", e.getMDCPropertyMap().get("rwsplit.request"), e.getFormattedMessage()));
    }
}
