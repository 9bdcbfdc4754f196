package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.Session;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rwsplit.Consistency;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.MariaDbCluster.JdbcDriver;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * Session state on the real cluster: after a statement that leaves state in the primary's session (a user
 * variable, a temporary table, a named lock, a prepared statement), the rest of that logical connection
 * runs on the primary, so the state is found (a session keeps its logical connection across {@code doWork}
 * calls outside a transaction); the next session's connection reads from replicas again.
 * The server that answered is {@code @@server_id} (1 = primary).
 */
@ReplicatedCluster
class SessionStateIT {

    private static final int PRIMARY_ID = 1;

    private final MariaDbCluster cluster;
    private EntityManagerFactory emf;

    SessionStateIT(MariaDbCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void open() throws SQLException {
        cluster.update(MariaDbCluster.PRIMARY, "create table account (id bigint auto_increment primary key,"
                + " owner varchar(100) not null, balance int not null)");
        cluster.update(MariaDbCluster.PRIMARY, "insert into account (owner, balance) values ('alice', 100)");
        cluster.sync();
        emf = new HibernatePersistenceConfiguration("session-state-it")
                .managedClass(Account.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(MariaDbCluster.PRIMARY, JdbcDriver.MARIADB))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.rwsplit.replicas", cluster.jdbcUrl(MariaDbCluster.replica(1), JdbcDriver.MARIADB) + "\n"
                        + cluster.jdbcUrl(MariaDbCluster.replica(2), JdbcDriver.MARIADB))
                .property("hibernate.rwsplit.pool.maximumPoolSize", "4")
                .createEntityManagerFactory();
    }

    @AfterEach
    void close() {
        if (emf != null) {
            emf.close();
        }
    }

    private static int serverId(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select @@server_id"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static String first(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "set @x := 42",
            "create temporary table scratch (v int)",
            "select get_lock('session-state-it', 1)",
            "prepare s from 'select @@server_id'"})
    void theRestOfTheLogicalConnectionStaysOnThePrimary(String statement) {
        AtomicInteger before = new AtomicInteger();
        AtomicInteger after = new AtomicInteger();
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).doWork(c -> {
                before.set(serverId(c));
                try (Statement s = c.createStatement()) {
                    s.execute(statement);
                }
                after.set(serverId(c));
            });
            assertNotEquals(PRIMARY_ID, before.get(), "a read before the statement goes to a replica");
            assertEquals(PRIMARY_ID, after.get(), "after it, reads stay with the session state");
            assertEquals(1, RwSplit.statistics(em).count(RouteReason.SESSION_STATE));
        }
        try (EntityManager em = emf.createEntityManager()) {
            // eventual: CREATE TEMPORARY TABLE counts as a write, which the unit-wide read-your-writes default honours
            RwSplit.withConsistency(em, Consistency.eventual(), () -> em.unwrap(Session.class).doWork(c ->
                    assertNotEquals(PRIMARY_ID, serverId(c), "the next session's connection reads from a replica again")));
            assertEquals(0, RwSplit.statistics(em).count(RouteReason.SESSION_STATE));
        }
    }

    @Test
    void aUserVariableAndATemporaryTableAreFoundWhereTheyWereMade() {
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).doWork(c -> {
                try (Statement s = c.createStatement()) {
                    s.execute("set @x := 1");
                    assertEquals("1", first(s, "select @x"));
                    s.execute("create temporary table scratch (v int)");
                    s.execute("insert into scratch values (7)");
                    assertEquals("7", first(s, "select v from scratch"));
                }
                try (PreparedStatement ps = c.prepareStatement("select count(*) from scratch");
                     ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(1, rs.getInt(1));
                }
            });
        }
    }
}
