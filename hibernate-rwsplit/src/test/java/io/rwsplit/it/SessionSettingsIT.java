package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.Session;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import ch.qos.logback.classic.Level;

import io.rwsplit.Consistency;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.internal.replica.ReplicaMonitor;
import io.rwsplit.testing.LogCapture;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.MariaDbCluster.JdbcDriver;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * Session settings on the real MariaDB cluster, as an application sends them in {@code doWork}: the setting
 * runs on the primary and is replayed on the replica, so that the read right after it, served by a replica,
 * shows the setting; later plain reads stay on replicas; the next logical connection (on the same, single
 * pooled replica connection or a fresh one) starts from the pool's settings again. The server that answered
 * is {@code @@server_id} (1 = primary).
 */
@ReplicatedCluster
class SessionSettingsIT {

    private static final int PRIMARY_ID = 1;

    private final MariaDbCluster cluster;
    private EntityManagerFactory emf;

    SessionSettingsIT(MariaDbCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void open() throws SQLException {
        cluster.update(MariaDbCluster.PRIMARY, "create table account (id bigint auto_increment primary key,"
                + " owner varchar(100) not null, balance int not null)");
        cluster.sync();
        emf = new HibernatePersistenceConfiguration("session-settings-it")
                .managedClass(Account.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(MariaDbCluster.PRIMARY, JdbcDriver.MARIADB))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                // one replica with one pooled connection: the next logical connection gets the same one back
                .property("hibernate.rwsplit.replicas", cluster.jdbcUrl(MariaDbCluster.replica(1), JdbcDriver.MARIADB))
                .property("hibernate.rwsplit.pool.maximumPoolSize", "1")
                .property("hibernate.rwsplit.pool.minimumIdle", "1")
                .createEntityManagerFactory();
    }

    @AfterEach
    void close() {
        if (emf != null) {
            emf.close();
        }
    }

    /** The value of {@code expression} and the server that computed it. */
    record Answer(String value, int server) {
    }

    private static Answer ask(Connection c, String expression) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select " + expression + ", @@server_id")) {
            rs.next();
            return new Answer(rs.getString(1), rs.getInt(2));
        }
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            SET SESSION time_zone = '+05:00'                          | @@session.time_zone          | +05:00
            set time_zone = '-03:30'                                  | @@session.time_zone          | -03:30
            SET NAMES latin1                                          | @@character_set_client       | latin1
            set character set latin1                                  | @@character_set_results      | latin1
            SET sql_mode = 'ANSI_QUOTES'                              | @@session.sql_mode           | ANSI_QUOTES
            SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED    | @@session.tx_isolation       | READ-COMMITTED
            set div_precision_increment = 8                           | 1/3                          | 0.33333333
            use information_schema                                    | database()                   | information_schema
            """)
    void aSessionSettingIsReplayedOnTheReplicaThatServesTheNextReads(String setting, String expression, String expected) {
        try (EntityManager em = emf.createEntityManager()) {
            RwSplit.consistency(em, Consistency.eventual());
            em.unwrap(Session.class).doWork(c -> {
                Answer before = ask(c, expression);
                assertNotEquals(PRIMARY_ID, before.server(), "a read before the setting goes to the replica");
                assertNotEquals(expected, before.value(), "the pool's default differs");
                run(c, setting);
                Answer after = ask(c, expression);
                assertEquals(expected, after.value(), setting);
                assertNotEquals(PRIMARY_ID, after.server(), "the read after the setting is still served by the replica");
                assertEquals(expected, ask(c, expression).value(), "and stays set");
            });
            assertEquals(1, RwSplit.statistics(em).count(RouteReason.SESSION_COMMAND));
            assertEquals(0, RwSplit.statistics(em).count(RouteReason.SESSION_STATE));
        }
        String fresh = inReadOnlyTransaction(setting, expression, expected);
        try (EntityManager em = emf.createEntityManager()) {
            RwSplit.consistency(em, Consistency.eventual());
            em.unwrap(Session.class).doWork(c -> {
                Answer next = ask(c, expression);
                assertNotEquals(PRIMARY_ID, next.server());
                assertEquals(fresh, next.value(), "the next logical connection starts from the pool's settings");
            });
        }
    }

    /** The same in a read-only transaction; returns the value before the setting (the pool's default). */
    private String inReadOnlyTransaction(String setting, String expression, String expected) {
        String[] before = new String[1];
        try (EntityManager em = emf.createEntityManager()) {
            RwSplit.consistency(em, Consistency.eventual());
            em.unwrap(Session.class).doWork(c -> {
                c.setReadOnly(true);
                c.setAutoCommit(false);
                Answer first = ask(c, expression);
                before[0] = first.value();
                assertNotEquals(PRIMARY_ID, first.server(), "a read-only transaction reads from the replica");
                run(c, setting);
                Answer after = ask(c, expression);
                assertEquals(expected, after.value(), setting + " in a read-only transaction");
                assertNotEquals(PRIMARY_ID, after.server());
                c.commit();
                c.setAutoCommit(true);
                c.setReadOnly(false);
                assertEquals(expected, ask(c, expression).value(), "after the transaction, on the same logical connection");
            });
        }
        return before[0];
    }

    @org.junit.jupiter.api.Test
    void replicaPoolsRunThePrimaryPoolsInitSqlUnlessTheyHaveTheirOwn() {
        for (String own : new String[] {null, "SET time_zone = '-07:00'"}) {
            HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("session-settings-init-it")
                    .managedClass(Account.class)
                    .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(MariaDbCluster.PRIMARY, JdbcDriver.MARIADB))
                    .property("jakarta.persistence.jdbc.user", cluster.user())
                    .property("jakarta.persistence.jdbc.password", cluster.password())
                    .property("hibernate.hikari.connectionInitSql", "SET time_zone = '+03:00'")
                    .property("hibernate.rwsplit.replicas", cluster.jdbcUrl(MariaDbCluster.replica(1), JdbcDriver.MARIADB));
            if (own != null) {
                cfg.property("hibernate.rwsplit.pool.connectionInitSql", own);
            }
            try (EntityManagerFactory f = cfg.createEntityManagerFactory(); EntityManager em = f.createEntityManager()) {
                RwSplit.consistency(em, Consistency.eventual());
                em.unwrap(Session.class).doWork(c -> {
                    Answer replica = ask(c, "@@session.time_zone");
                    assertNotEquals(PRIMARY_ID, replica.server());
                    assertEquals(own == null ? "+03:00" : "-07:00", replica.value(), "init SQL of the replica pool");
                    assertEquals("+03:00", RwSplit.onPrimary(em, () -> {
                        try {
                            return ask(c, "@@session.time_zone").value();
                        }
                        catch (SQLException e) {
                            throw new IllegalStateException(e);
                        }
                    }));
                });
            }
        }
    }

    /** A unit on the cluster's primary (at {@code primaryUrl}) reading from replica 1. */
    private HibernatePersistenceConfiguration unit(String name, String primaryUrl) {
        return new HibernatePersistenceConfiguration(name)
                .managedClass(Account.class)
                .property("jakarta.persistence.jdbc.url", primaryUrl)
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.rwsplit.replicas", cluster.jdbcUrl(MariaDbCluster.replica(1), JdbcDriver.MARIADB));
    }

    static List<String> sessionSettingsWarnings(LogCapture logs) {
        return logs.lines().stream().filter(line -> line.contains("answers with other session settings")).toList();
    }

    /** Waits until the warning came, then four probe intervals more (250 ms each): it must not come again. */
    static String theOnlyWarning(LogCapture logs) {
        HealthContract.awaitMillis(Duration.ofSeconds(15), () -> !sessionSettingsWarnings(logs).isEmpty(),
                "the session settings warning");
        long later = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        HealthContract.awaitMillis(Duration.ofSeconds(5), () -> System.nanoTime() > later, "four more probes");
        List<String> warnings = sessionSettingsWarnings(logs);
        assertEquals(1, warnings.size(), "once per replica, not every probe: " + warnings);
        return warnings.get(0);
    }

    @org.junit.jupiter.api.Test
    void aReplicaWhosePoolSetsAnotherTimeZoneIsReportedOnceNamingTheSettingAndTheFix() {
        try (LogCapture logs = LogCapture.attach(ReplicaMonitor.class.getName(), Level.WARN);
             EntityManagerFactory f = unit("session-settings-check-it", cluster.jdbcUrl(MariaDbCluster.PRIMARY, JdbcDriver.MARIADB))
                     .property("hibernate.rwsplit.pool.connectionInitSql", "SET time_zone = '+05:00'")
                     .createEntityManagerFactory()) {
            String warning = theOnlyWarning(logs);
            assertTrue(warning.startsWith("WARN " + ReplicaMonitor.class.getName()
                    + " hibernate-rwsplit [default]: replica 'replica1' answers with other session settings than the"
                    + " primary: time_zone: primary="), warning);
            assertTrue(warning.contains(", replica=+05:00"), warning);
            assertFalse(warning.contains("sql_mode"), "only what differs: " + warning);
            assertTrue(warning.contains("'hibernate.rwsplit.pool.connectionInitSql'"), warning);
        }
    }

    @org.junit.jupiter.api.Test
    void aSessionPropertyOfThePrimaryUrlReachesReplicaReads() {
        String primaryUrl = cluster.jdbcUrl(MariaDbCluster.PRIMARY, JdbcDriver.MARIADB) + "?sessionVariables=time_zone='+03:00'";
        try (LogCapture logs = LogCapture.attach(ReplicaMonitor.class.getName(), Level.DEBUG);
             EntityManagerFactory f = unit("session-settings-url-it", primaryUrl).createEntityManagerFactory();
             EntityManager em = f.createEntityManager()) {
            RwSplit.consistency(em, Consistency.eventual());
            em.unwrap(Session.class).doWork(c -> {
                Answer replica = ask(c, "@@session.time_zone");
                assertNotEquals(PRIMARY_ID, replica.server());
                assertEquals("+03:00", replica.value(), "the replica pool inherited sessionVariables of the primary URL");
                assertEquals("+03:00", RwSplit.onPrimary(em, () -> {
                    try {
                        return ask(c, "@@session.time_zone").value();
                    }
                    catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }), "as the primary answers");
            });
            theSessionsWereFoundAlike(logs);
        }
    }

    /** Waits for the monitor's comparison of the replica's sessions with the primary's, which found them alike. */
    static void theSessionsWereFoundAlike(LogCapture logs) {
        HealthContract.awaitMillis(Duration.ofSeconds(15), () -> logs.lines().stream()
                .anyMatch(line -> line.contains("answers with the primary's session settings")), "the comparison");
        assertEquals(List.of(), sessionSettingsWarnings(logs));
    }
}
