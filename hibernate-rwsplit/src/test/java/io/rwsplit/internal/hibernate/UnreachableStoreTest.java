package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.testing.FakeClock;

/** A Redis store nobody answers on: named scopes read from the primary, with one warning in all. */
class UnreachableStoreTest {

    private final H2Pair h2 = new H2Pair();
    private final Logger log = (Logger) LoggerFactory.getLogger("io.rwsplit.consistency");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private EntityManagerFactory emf;

    @AfterEach
    void close() {
        log.detachAppender(appender);
        if (emf != null) {
            emf.close();
        }
        h2.close();
    }

    @Test
    void scopesWithUnknownStateReadFromThePrimaryWithOneWarning() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        appender.start();
        log.addAppender(appender);
        Map<String, Object> settings = h2.settings();
        settings.put(RwSplitSettings.CLOCK, new FakeClock());
        settings.put(RwSplitSettings.CONSISTENCY_STORE, "redis");
        settings.put(RwSplitSettings.REDIS_URL, "redis://127.0.0.1:" + closedPort);
        emf = h2.factory(settings);

        for (int i = 0; i < 5; i++) {
            try (EntityManager em = emf.createEntityManager()) {
                RwSplit.scope(em, "user-" + i);
                assertEquals("primary-alice", em.find(Person.class, 1L).name);
                assertEquals(RouteReason.READ_YOUR_WRITES_PRIMARY, RwSplit.statistics(em).lastDecision().reason());
            }
        }
        try (EntityManager em = emf.createEntityManager()) {
            assertEquals("primary-alice", em.find(Person.class, 1L).name, "the unit's position is unknown too");
            assertEquals(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY, RwSplit.statistics(em).lastDecision().reason());
        }
        List<ILoggingEvent> warnings = appender.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
        assertEquals(1, warnings.size(), warnings.toString());
    }
}
