package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import io.rwsplit.Consistency;
import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.health.ReplicaStatus;

/**
 * No password reaches a log line, an error or the health details: everything the module logs (at DEBUG) and
 * every logger at INFO is collected while units start with passwords in replica and tenant URLs and in pool
 * properties, while replicas refuse the password or cannot be reached, and while startup refuses bad settings.
 */
class SecretsInLogsTest {

    private final String secret = "Pa55-" + UUID.randomUUID().toString().substring(0, 8);
    private final H2Pair h2 = new H2Pair();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    private final Logger ours = (Logger) LoggerFactory.getLogger("io.rwsplit");
    private Level rootLevel;
    private Level ourLevel;
    private Connection keepSecretReplica;
    private String secretReplicaUrl;

    @BeforeEach
    void capture() throws SQLException {
        rootLevel = root.getLevel();
        ourLevel = ours.getLevel();
        root.setLevel(Level.INFO);
        ours.setLevel(Level.DEBUG);
        appender.start();
        root.addAppender(appender);
        // a replica database whose password is the secret, given in its URL
        secretReplicaUrl = "jdbc:h2:mem:secret_" + UUID.randomUUID().toString().substring(0, 8)
                + ";DB_CLOSE_DELAY=-1;user=sa;password=" + secret;
        keepSecretReplica = DriverManager.getConnection(secretReplicaUrl);
        try (Statement s = keepSecretReplica.createStatement()) {
            s.execute("create table person (id bigint primary key, name varchar(100))");
            s.execute("insert into person (id, name) values (1, 'secret-replica-alice')");
        }
    }

    @AfterEach
    void restore() throws SQLException {
        root.detachAppender(appender);
        root.setLevel(rootLevel);
        ours.setLevel(ourLevel);
        keepSecretReplica.close();
        h2.close();
    }

    @Test
    void noPasswordInTheLogsOrTheHealthOfAUnitWhoseReplicasRefuseOrCannotBeReached() {
        Map<String, Object> settings = h2.settings();
        settings.put(RwSplitSettings.REPLICAS, "good=" + secretReplicaUrl
                + ",refusing=" + h2.replicaUrl + ";password=" + secret
                + ",unreachable=jdbc:h2:tcp://127.0.0.1:1/mem:gone;password=" + secret);
        settings.put(RwSplitSettings.PROBE_INTERVAL, "50ms");
        settings.put(RwSplitSettings.FAILURE_THRESHOLD, "1");
        try (EntityManagerFactory emf = h2.factory(settings)) {
            for (int i = 0; i < 6; i++) {
                try (EntityManager em = emf.createEntityManager()) {
                    RwSplit.consistency(em, Consistency.eventual());
                    em.find(Person.class, 1L);
                }
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!(down(emf, "refusing") && down(emf, "unreachable")) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(down(emf, "refusing") && down(emf, "unreachable"), () -> RwSplit.health(emf).replicas().toString());
            for (ReplicaStatus status : RwSplit.health(emf).replicas()) {
                assertFalse(String.valueOf(status.lastError()).contains(secret), status::toString);
            }
            assertFalse(RwSplit.health(emf).toString().contains(secret), () -> RwSplit.health(emf).toString());
        }
        assertTrue(logged().stream().anyMatch(line -> line.contains("routing between the primary")), this::report);
        assertTrue(logged().stream().anyMatch(line -> line.contains("password=****")), this::report);
        assertNoSecretLogged();
    }

    @Test
    void noPasswordInTheStartupLineOfATenantWhosePrimaryUrlCarriesIt() {
        String tenantPrimary = "jdbc:h2:mem:tenant_" + UUID.randomUUID().toString().substring(0, 8)
                + ";DB_CLOSE_DELAY=-1;user=sa;password=" + secret;
        Map<String, Object> settings = h2.settings();
        settings.remove(RwSplitSettings.REPLICAS);
        settings.put(RwSplitSettings.TENANTS, "acme");
        settings.put(RwSplitSettings.TENANT_PREFIX + "acme.url", tenantPrimary);
        settings.put(RwSplitSettings.TENANT_PREFIX + "acme.replicas", "r=" + secretReplicaUrl);
        h2.factory(settings).close();
        assertTrue(logged().stream().anyMatch(line -> line.contains("tenant acme")), this::report);
        assertNoSecretLogged();
    }

    @Test
    void noPasswordInTheErrorsOfRefusedSettings() {
        List<Map<String, Object>> refused = new ArrayList<>();
        Map<String, Object> replicaIsThePrimary = h2.settings();
        replicaIsThePrimary.put("jakarta.persistence.jdbc.url", h2.primaryUrl + ";password=" + secret);
        replicaIsThePrimary.put(RwSplitSettings.REPLICAS, h2.primaryUrl + ";password=" + secret);
        refused.add(replicaIsThePrimary);
        Map<String, Object> badPoolProperty = h2.settings();
        badPoolProperty.put(RwSplitSettings.REPLICAS, secretReplicaUrl);
        badPoolProperty.put(RwSplitSettings.POOL_PREFIX + "dataSource.password", secret);
        badPoolProperty.put(RwSplitSettings.POOL_PREFIX + "noSuchHikariProperty", "1");
        refused.add(badPoolProperty);
        Map<String, Object> badUrl = h2.settings();
        badUrl.put(RwSplitSettings.REPLICAS, "jdbc:nosuchdriver://h/d?password=" + secret);
        refused.add(badUrl);
        for (Map<String, Object> settings : refused) {
            Throwable t = assertThrows(Throwable.class, () -> h2.factory(settings).close());
            for (Throwable c = t; c != null; c = c.getCause()) {
                assertFalse(String.valueOf(c.getMessage()).contains(secret), String.valueOf(c.getMessage()));
                if (c.getCause() == c) {
                    break;
                }
            }
        }
        assertNoSecretLogged();
    }

    private static boolean down(EntityManagerFactory emf, String replica) {
        return RwSplit.health(emf).status(replica).state() == ReplicaState.DOWN;
    }

    private void assertNoSecretLogged() {
        List<String> leaks = logged().stream().filter(line -> line.contains(secret)).toList();
        assertEquals(List.of(), leaks, "log lines carrying the password");
    }

    /** Every event: its formatted message and every message of its throwable chain. */
    private List<String> logged() {
        List<String> lines = new ArrayList<>();
        for (ILoggingEvent e : List.copyOf(appender.list)) {
            StringBuilder line = new StringBuilder(e.getLevel() + " " + e.getLoggerName() + " " + e.getFormattedMessage());
            for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
                line.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
            }
            lines.add(line.toString());
        }
        return lines;
    }

    private String report() {
        return String.join("\n", logged());
    }
}
