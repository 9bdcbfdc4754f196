package io.rwsplit.quarkus.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Routing in a Quarkus application configured only by {@code quarkus.rwsplit.*}: person 1 is "primary-alice" on the
 * primary (the default datasource) and "replica-alice" on the replica, so each answer tells which server gave it.
 */
@QuarkusTest
class RoutingTest {

    private static final String REPLICA_URL = "jdbc:h2:mem:quarkus_replica";

    @Inject
    People people;

    @Inject
    AgroalDataSource primary;

    @Test
    void autocommitReadIsAnsweredByTheReplica() {
        assertEquals("replica-alice", people.nameOf(1L));
    }

    @Test
    void readInATransactionThatWroteIsAnsweredByThePrimary() {
        assertEquals("primary-alice", people.addThenRead(10L, "dora", 1L));
    }

    @Test
    void readInATransactionThatOnlyReadsIsAnsweredByThePrimary() {
        // a JTA transaction is never guessed to be read-only: without @ReadReplica its reads stay on the primary
        assertEquals("primary-bob", people.nameInTransaction(2L));
    }

    @Test
    void writeGoesToThePrimary() throws SQLException {
        people.add(20L, "erin");
        try (Connection c = primary.getConnection()) {
            assertEquals("erin", name(c, 20L));
        }
        try (Connection c = DriverManager.getConnection(REPLICA_URL, "sa", "")) {
            assertNull(name(c, 20L));
        }
    }

    private static String name(Connection c, long id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select name from person where id = ?")) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
