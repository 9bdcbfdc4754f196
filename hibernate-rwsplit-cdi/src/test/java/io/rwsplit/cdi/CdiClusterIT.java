package io.rwsplit.cdi;

import static io.rwsplit.testing.MariaDbCluster.PRIMARY;
import static io.rwsplit.testing.MariaDbCluster.replica;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.enterprise.context.control.RequestContextController;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import org.jboss.weld.junit.MockBean;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.arjuna.ats.jta.cdi.TransactionExtension;

import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;
import io.rwsplit.UsePrimary;

/**
 * The CDI module against the replicated MariaDB cluster: Agroal pools (the primary enlisted in Narayana's JTA
 * transactions), {@code @ReadReplica} / {@code @UsePrimary} bean methods, {@code @Transactional} boundaries and
 * the request's consistency scope. Every read names the server that ran it: {@code @@server_id} is 1 on the
 * primary, 2 and 3 on the replicas.
 */
@ReplicatedCluster
@EnableWeld
class CdiClusterIT {

    private static final int PRIMARY_ID = 1;
    private static final Set<Integer> REPLICA_IDS = Set.of(2, 3);

    private final MariaDbCluster cluster;

    @WeldSetup
    WeldInitiator weld;

    @Inject
    ServedBy servedBy;

    @Inject
    RwSplitRequest request;

    @Inject
    RequestContextController requests;

    @Inject
    EntityManagerFactory emf;

    CdiClusterIT(MariaDbCluster cluster) {
        this.cluster = cluster;
        // without discovery Weld SE loads no extension from META-INF/services: add them as an application would get them
        weld = WeldInitiator.from(WeldInitiator.createWeld()
                        .addExtension(new TransactionExtension())
                        .addExtension(new RwSplitExtension())
                        .addBeanClasses(ClusterUnit.class, ServedBy.class))
                .addBeans(MockBean.of(cluster, MariaDbCluster.class))
                .build();
    }

    @BeforeEach
    void createNote() throws SQLException {
        cluster.update(PRIMARY, "create table note (id int primary key, text varchar(40) not null)");
        cluster.update(PRIMARY, "insert into note values (1, 'seeded')");
        cluster.sync();
    }

    @Test
    void readReplicaBeanMethodIsServedByAReplica() {
        int servedBy = this.servedBy.serverIdOnReplica();
        assertTrue(REPLICA_IDS.contains(servedBy), "served by " + servedBy);
    }

    @Test
    void usePrimaryBeanMethodIsServedByThePrimary() {
        assertEquals(PRIMARY_ID, servedBy.serverIdOnPrimary());

        int[] outerInnerOuter = servedBy.serverIdsAroundPrimaryCall();
        assertEquals(PRIMARY_ID, outerInnerOuter[1], "inner @UsePrimary call");
        assertTrue(REPLICA_IDS.contains(outerInnerOuter[0]), "outer @ReadReplica read before: " + outerInnerOuter[0]);
        assertTrue(REPLICA_IDS.contains(outerInnerOuter[2]), "outer @ReadReplica read after: " + outerInnerOuter[2]);
    }

    @Test
    void jtaReadWriteTransactionStaysOnPrimaryAndItsWriteReplicates() throws SQLException {
        assertEquals(PRIMARY_ID, servedBy.readThenWrite(1, "committed"), "read before the first write");

        assertEquals("committed", cluster.queryString(PRIMARY, "select text from note where id = 1"));
        cluster.sync();
        assertEquals("committed", cluster.queryString(replica(1), "select text from note where id = 1"));
        assertEquals("committed", cluster.queryString(replica(2), "select text from note where id = 1"));
    }

    @Test
    void readOnlyPathOutsideTransactionIsServedByReplica() {
        assertEquals(PRIMARY_ID, servedBy.readThenWrite(1, "written"));
        cluster.sync();

        ServedBy.Note note = servedBy.note(1);
        assertEquals("written", note.text());
        assertTrue(REPLICA_IDS.contains(note.serverId()), "served by " + note.serverId());
    }

    @Test
    void requestScopeKeyGivesReadYourWritesAcrossTwoRequestsWithDelayedReplicas() {
        cluster.delay(1, 2);
        cluster.delay(2, 2);

        inRequest("u1", () -> servedBy.readThenWrite(1, "u1-wrote"));
        ServedBy.Note otherUser = inRequest("u2", () -> servedBy.noteOnReplica(1));
        ServedBy.Note sameUser = inRequest("u1", () -> servedBy.noteOnReplica(1));

        // the replicas really lag: another user's read is served by one and misses the write...
        assertTrue(REPLICA_IDS.contains(otherUser.serverId()), "other user served by " + otherUser.serverId());
        assertEquals("seeded", otherUser.text());
        // ...while the writer's next request reads it (from the primary or a replica that applied it)
        assertEquals("u1-wrote", sameUser.text(), "served by " + sameUser.serverId());
        // ...by the exact (GTID) path, not by the time window: the JTA commit's position was captured
        Map<String, Long> reasons = RwSplit.statistics(emf).byReason();
        assertEquals(0L, reasons.getOrDefault(RouteReason.READ_YOUR_WRITES_PRIMARY.name(), 0L), reasons.toString());
        long causal = reasons.getOrDefault(RouteReason.CAUSAL_TIMEOUT_PRIMARY.name(), 0L)
                + reasons.getOrDefault(RouteReason.CAUSAL_BEHIND_PRIMARY.name(), 0L)
                + reasons.getOrDefault(RouteReason.CAUSAL_WAIT.name(), 0L)
                + reasons.getOrDefault(RouteReason.CAUSAL_REPLICA_CAUGHT_UP.name(), 0L);
        assertTrue(causal >= 1, reasons.toString());
    }

    /** Runs {@code work} in a new request whose consistency scope is {@code user}. */
    private <T> T inRequest(String user, Supplier<T> work) {
        requests.activate();
        try {
            request.scopeKey(user);
            return work.get();
        }
        finally {
            requests.deactivate();
        }
    }
}
