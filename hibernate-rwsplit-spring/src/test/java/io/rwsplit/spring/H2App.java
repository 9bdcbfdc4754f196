package io.rwsplit.spring;

import java.sql.SQLException;
import java.util.Map;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * One web application on an H2 primary and replica, shared by the H2 test classes of a test run (a Spring Boot
 * start is the slow part of these tests); closed when the JVM exits.
 */
final class H2App {

    private static H2App instance;

    final ConfigurableApplicationContext context;
    final int port;

    private H2App() throws SQLException {
        H2Databases db = new H2Databases();
        Map<String, Object> p = Apps.h2(db);
        p.put("logging.level.io.rwsplit.route", "debug");
        // the test classes share this application: with the unit-wide default, one class's writes would send the
        // next class's reads to the primary for the read-your-writes window (these tests are about routing by
        // annotation and by HTTP method; scopes named by the consistency cookie still apply)
        p.put("spring.jpa.properties.hibernate.rwsplit.consistency_scope", "session");
        context = Apps.start(true, p);
        port = Apps.port(context);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            context.close();
            try {
                db.close();
            }
            catch (SQLException ignored) {
                // the JVM is exiting
            }
        }));
    }

    static synchronized H2App get() throws SQLException {
        if (instance == null) {
            instance = new H2App();
        }
        return instance;
    }
}
