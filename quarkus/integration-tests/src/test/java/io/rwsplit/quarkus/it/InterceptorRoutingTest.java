package io.rwsplit.quarkus.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;

/**
 * {@code @ReadReplica}, {@code @UsePrimary} and {@code @ReadConsistency} on CDI beans of a Quarkus application, nested,
 * with exceptions and with {@code @Transactional}. "primary-alice" / "replica-alice" tells which server answered; the
 * unit's default level is {@code eventual} (application.properties).
 */
@QuarkusTest
class InterceptorRoutingTest {

    private static final String REPLICA_URL = "jdbc:h2:mem:quarkus_replica";

    @Inject
    AnnotatedReads reads;

    @Inject
    PrimaryCalls primaryCalls;

    @Inject
    People people;

    @Inject
    EntityManagerFactory emf;

    @Inject
    AgroalDataSource primary;

    @Test
    void readReplicaMethodReadsFromTheReplica() {
        assertEquals("replica-alice", reads.onReplica(1));
    }

    @Test
    void usePrimaryMethodSendsAnAutocommitReadToThePrimary() {
        assertEquals("primary-alice", reads.onPrimary(1));
        assertEquals("replica-alice", reads.name(1));
    }

    @Test
    void innerReadReplicaCallOverridesOuterUsePrimaryAndIsRestoredOnExit() {
        assertArrayEquals(new String[] {"primary-alice", "replica-alice", "primary-alice"},
                primaryCalls.aroundReplicaCall(1));
    }

    @Test
    void innerReadReplicaCallInsideATransactionBegunBeforeItKeepsThePrimary() {
        assertArrayEquals(new String[] {"primary-alice", "primary-alice", "primary-alice"},
                primaryCalls.aroundReplicaCallInTransaction(1));
    }

    @Test
    void readReplicaOnMethodOverridesUsePrimaryOnClassAndInnerIntentIsGoneAfterAThrow() {
        assertEquals("replica-alice", primaryCalls.afterFailedPrimaryCall(1));
        assertThrows(IllegalStateException.class, () -> reads.failOnPrimary(1));
        assertEquals("replica-alice", reads.name(1));
    }

    @Test
    void readReplicaTransactionReadsFromTheReplica() {
        long before = reason(RouteReason.READ_ONLY_TRANSACTION);
        assertEquals("replica-alice", reads.inReplicaTransaction(1));
        assertEquals(before + 1, reason(RouteReason.READ_ONLY_TRANSACTION));
    }

    @Test
    void writeInReadReplicaTransactionGoesToThePrimaryAndCommitsThere() throws SQLException {
        people.add(40L, "gina");
        String[] read = reads.readRenameRead(1, 40, "gina-renamed");
        assertEquals("replica-alice", read[0]);
        assertEquals("primary-alice", read[1], "after the write the transaction reads its own primary");
        assertEquals("gina-renamed", primaryName(40));
        assertEquals(null, replicaName(40));
    }

    @Test
    void readReplicaTransactionThatThrowsRollsBackItsWriteOnThePrimary() throws SQLException {
        people.add(41L, "hal");
        assertThrows(IllegalStateException.class, () -> reads.readRenameFail(1, 41, "hal-renamed"));
        assertEquals("hal", primaryName(41));
    }

    @Test
    void strongConsistencyReadsFromThePrimaryEvenUnderReadReplica() {
        assertEquals("primary-alice", reads.strong(1));
        assertEquals("primary-alice", reads.onReplicaButStrong(1));
    }

    @Test
    void readYourWritesLevelSeesTheUnitsLastWriteAndEventualDoesNot() {
        people.add(42L, "ivy");
        // time mode on H2: the unit's reads stay on the primary for read_your_writes_window (1 min in this application) after its last commit
        assertEquals("primary-alice", reads.readYourWrites(1));
        assertEquals("replica-alice", reads.eventual(1));
    }

    private long reason(RouteReason reason) {
        return RwSplit.statistics(emf).byReason().getOrDefault(reason.name(), 0L);
    }

    private String primaryName(long id) throws SQLException {
        try (Connection c = primary.getConnection()) {
            return name(c, id);
        }
    }

    private static String replicaName(long id) throws SQLException {
        try (Connection c = DriverManager.getConnection(REPLICA_URL, "sa", "")) {
            return name(c, id);
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
