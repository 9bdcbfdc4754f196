package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.Session;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.testing.TestCluster;

/**
 * What JDBC code does on the unit's connection ({@code Session.doWork}, autocommit), with both replicas a second
 * behind and kept in rotation ({@code max_lag=0}), answered as one server would answer it (one subclass per
 * database). Each read also names the server that answered it, so a wrong answer says where it came from.
 */
abstract class StatementHolesContract {

    final TestCluster cluster;
    EntityManagerFactory emf;

    StatementHolesContract(TestCluster cluster) {
        this.cluster = cluster;
    }

    /** An SQL expression naming the server that evaluates it (as {@link TestCluster#serverIdentity}). */
    private String identity() {
        return cluster.kind().serverIdentity();
    }

    @BeforeEach
    void start() throws SQLException {
        cluster.update(TestCluster.PRIMARY, "create table holes (id int primary key, label varchar(20))");
        cluster.sync();
        cluster.delay(1, 1);
        cluster.delay(2, 1);
        emf = new HibernatePersistenceConfiguration("statement-holes-it")
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(TestCluster.PRIMARY))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property(RwSplitSettings.REPLICAS, cluster.namedReplicaUrlsWithCredentials())
                .property(RwSplitSettings.MAX_LAG, "0")
                .createEntityManagerFactory();
    }

    @AfterEach
    void stop() {
        if (emf != null) {
            emf.close();
        }
    }

    @Test
    void aPreparedInsertExecutedAgainIsReadBackByAFreshSelect() {
        String answer = doWork(c -> {
            try (PreparedStatement insert = c.prepareStatement("insert into holes values (?, ?)")) {
                insert.setInt(1, 1);
                insert.setString(2, "one");
                insert.executeUpdate();
                rowsWithId(c, 1);   // a read between the two executions records the first one's position
                awaitOnBothReplicas(1); // "later": the replicas have the first row, not yet the second
                insert.setInt(1, 2);
                insert.setString(2, "two");
                insert.executeUpdate();
            }
            return rowsWithId(c, 2);
        });
        assertEquals("1", count(answer), "the row the second execution inserted, answered by " + server(answer));
        String later = doWork(c -> rowsWithId(c, 2));
        assertEquals("1", count(later), "in the next session, answered by " + server(later));
    }

    @Test
    void aReadPreparedBeforeAnInsertAndExecutedAfterItSeesTheRow() {
        String answer = doWork(c -> {
            try (PreparedStatement read = c.prepareStatement("select count(*), " + identity() + " from holes where id = ?")) {
                read.setInt(1, 3);
                try (Statement insert = c.createStatement()) {
                    insert.executeUpdate("insert into holes values (3, 'three')");
                }
                return answer(read);
            }
        });
        assertEquals("1", count(answer), "answered by " + server(answer));
    }

    @Test
    void aReadReusedHundredsOfTimesAndExecutedAfterAnInsertSeesTheRow() {
        String answer = doWork(c -> {
            try (PreparedStatement read = c.prepareStatement("select count(*), " + identity() + " from holes where id = ?")) {
                for (int i = 0; i < 300; i++) {   // a library that keeps its statement: 300 setter calls
                    read.setInt(1, 1000 + i);
                    answer(read);
                }
                try (Statement insert = c.createStatement()) {
                    insert.executeUpdate("insert into holes values (8, 'eight')");
                }
                read.setInt(1, 8);
                read.setInt(1, 8);   // set twice: the last value counts, as on one server
                return answer(read);
            }
        });
        assertEquals("1", count(answer), "answered by " + server(answer));
    }

    @Test
    void aStatementsBatchRunsWhereItWasAddedWhateverTheStatementReadsInBetween() throws SQLException {
        String counts = doWork(c -> {
            try (Statement st = c.createStatement()) {
                st.addBatch("insert into holes values (100, 'hundred')");
                try (ResultSet rs = st.executeQuery("select 1")) {
                    rs.next();
                }
                return java.util.Arrays.toString(st.executeBatch());
            }
        });
        assertEquals("[1]", counts, "one row inserted, as one server would report it");
        assertEquals(1, cluster.queryInt(TestCluster.PRIMARY, "select count(*) from holes where id = 100"));
    }

    @Test
    void aReadUnderALockRunsWhereTheLockIsHeld() throws SQLException {
        cluster.update(TestCluster.PRIMARY, "insert into holes values (50, 'fifty')"); // a second from the replicas
        boolean postgres = cluster.kind() == io.rwsplit.testing.Database.POSTGRESQL;
        String answer = doWork(c -> {
            try (Statement st = c.createStatement()) {
                st.execute(postgres ? "select pg_advisory_lock(42)" : "LOCK TABLES holes WRITE");
                try {
                    return rowsWithId(c, 50);
                }
                finally {
                    st.execute(postgres ? "select pg_advisory_unlock(42)" : "UNLOCK TABLES");
                }
            }
        });
        assertEquals("1", count(answer), "a read-modify-write under the lock reads the primary, answered by "
                + server(answer));
    }

    @Test
    void readsGoBackToTheReplicasOnceTheLastLockIsReleased() throws SQLException {
        cluster.update(TestCluster.PRIMARY, "insert into holes values (51, 'fifty-one')"); // a second from the replicas
        boolean postgres = cluster.kind() == io.rwsplit.testing.Database.POSTGRESQL;
        String[] answers = doWork(c -> {
            String[] seen = new String[3];
            try (Statement st = c.createStatement()) {
                if (postgres) {
                    st.execute("select pg_advisory_lock(42)");
                    st.execute("select pg_advisory_lock(43)");
                    st.execute("select pg_advisory_unlock(42)");
                    seen[0] = rowsWithId(c, 51);            // lock 43 is still held
                    st.execute("select pg_advisory_unlock(43)");
                }
                else {
                    st.execute("LOCK TABLES holes WRITE");
                    seen[0] = rowsWithId(c, 51);
                    st.execute("UNLOCK TABLES");
                }
                seen[1] = rowsWithId(c, 51);
                seen[2] = rowsWithId(c, 51);
            }
            return String.join("|", seen);
        }).split("\\|");
        assertEquals("1", count(answers[0]), "under a lock: the primary, answered by " + server(answers[0]));
        for (int i = 1; i < 3; i++) {
            assertTrue(server(answers[i]).startsWith("replica"), "released: a replica reads, answered by "
                    + server(answers[i]));
        }
    }

    @Test
    void theTransactionCommitAndChainOpensRunsOnThePrimaryEvenForEventualReads() {
        boolean postgres = cluster.kind() == io.rwsplit.testing.Database.POSTGRESQL;
        AtomicReference<String> answer = new AtomicReference<>();
        try (EntityManager em = emf.createEntityManager()) {
            RwSplit.consistency(em, io.rwsplit.Consistency.eventual());   // reads outside a transaction may go anywhere
            em.unwrap(Session.class).doWork(c -> {
                try (Statement st = c.createStatement()) {
                    st.execute(postgres ? "BEGIN" : "START TRANSACTION");
                    st.executeUpdate("insert into holes values (8, 'eight')");
                    st.execute("COMMIT AND CHAIN");
                    st.executeUpdate("insert into holes values (9, 'nine')");
                    answer.set(rowsWithId(c, 9));
                    st.execute("COMMIT");
                }
            });
        }
        assertEquals("1", count(answer.get()), "the chained transaction sees its own insert, answered by "
                + server(answer.get()));
    }

    @Test
    void aTransactionBegunBySqlReadsItsOwnInsertAndItsCommitIsReadBackInTheNextSession() {
        boolean postgres = cluster.kind() == io.rwsplit.testing.Database.POSTGRESQL;
        String[] answers = new String[2];
        doWork(c -> {
            try (Statement st = c.createStatement()) {
                st.execute(postgres ? "BEGIN" : "START TRANSACTION");
                st.executeUpdate("insert into holes values (7, 'seven')");
                answers[0] = rowsWithId(c, 7);
                st.execute("COMMIT");
            }
            return null;
        });
        assertEquals("1", count(answers[0]), "inside the transaction, answered by " + server(answers[0]));
        answers[1] = doWork(c -> rowsWithId(c, 7));
        assertEquals("1", count(answers[1]), "the committed row in a new session, answered by " + server(answers[1]));
    }

    @Test
    void aCommitWhoseReplicaConnectionDiedSucceedsOnceThePrimaryCommitted() throws SQLException {
        cluster.delay(1, 0);
        cluster.delay(2, 0);
        boolean postgres = cluster.kind() == io.rwsplit.testing.Database.POSTGRESQL;
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).setDefaultReadOnly(true);   // read-only by preference: it reads on a replica
            em.getTransaction().begin();
            Object[] backend = (Object[]) em.createNativeQuery("select " + (postgres ? "pg_backend_pid()" : "connection_id()")
                    + ", " + identity()).getSingleResult();
            String node = server(backend[0] + " " + backend[1]);
            em.createNativeQuery("insert into holes values (60, 'sixty')").executeUpdate();   // the rest on the primary
            if (postgres) {
                cluster.queryString(node, "select pg_terminate_backend(" + backend[0] + ")");
            }
            else {
                cluster.update(node, "kill connection " + backend[0]);
            }
            em.getTransaction().commit();   // one server would have committed: no exception, no retry, no duplicate
        }
        assertEquals(1, cluster.queryInt(TestCluster.PRIMARY, "select count(*) from holes where id = 60"));
        String next = doWork(c -> rowsWithId(c, 60));
        assertEquals("1", count(next), "the next read, answered by " + server(next));
    }

    @Test
    void aSavepointSetBeforeAReadOnlyTransactionsFirstReadIsRolledBackToWhereItWasSet() {
        String[] answers = new String[2];
        doWork(c -> {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            try {
                java.sql.Savepoint sp = c.setSavepoint();
                answers[0] = rowsWithId(c, 1);
                c.rollback(sp);   // PostgreSQL 3B001, MariaDB 1305 where the savepoint is not
                answers[1] = rowsWithId(c, 1);
                c.commit();
            }
            finally {
                c.setReadOnly(false);
                c.setAutoCommit(true);
            }
            return null;
        });
        assertTrue(!TestCluster.PRIMARY.equals(server(answers[0])), "routed as the first read would be: a replica");
        assertEquals(server(answers[0]), server(answers[1]), "the reads run where the savepoint is");
    }

    @Test
    void aWriteAfterASavepointOfAReadOnlyByPreferenceTransactionIsUndoneByARollbackToIt() throws SQLException {
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).setDefaultReadOnly(true);   // read-only by preference: it reads on a replica
            em.getTransaction().begin();
            em.createNativeQuery("select count(*) from holes").getSingleResult();
            em.unwrap(Session.class).doWork(c -> {
                java.sql.Savepoint sp = c.setSavepoint();
                try (Statement st = c.createStatement()) {
                    st.executeUpdate("insert into holes values (70, 'undone')");
                }
                c.rollback(sp);
            });
            em.getTransaction().commit();
        }
        assertEquals(0, cluster.queryInt(TestCluster.PRIMARY, "select count(*) from holes where id = 70"),
                "the rollback to the savepoint undid the insert");
    }

    @Test
    void clientInfoSetOnTheConnectionIsTheReplicasWhereTheTransactionReads() {
        String[] answers = new String[2];
        doWork(c -> {
            c.setClientInfo("ApplicationName", "holes-billing");   // in autocommit: on the primary's connection
            c.setAutoCommit(false);
            c.setReadOnly(true);
            try {
                answers[0] = rowsWithId(c, 1);   // the transaction reads on a replica connection opened now
                answers[1] = c.getClientInfo("ApplicationName");   // asked where the transaction runs
                c.commit();
            }
            finally {
                c.setReadOnly(false);
                c.setAutoCommit(true);
            }
            return null;
        });
        assertTrue(!TestCluster.PRIMARY.equals(server(answers[0])), "the read-only transaction reads on a replica");
        assertEquals("holes-billing", answers[1], "the replica connection has the client info set before it opened");
    }

    // ------------------------------------------------------------------ helpers

    private interface Work {
        String run(Connection c) throws SQLException;
    }

    /** {@code work} in a new session's {@code doWork}, outside a transaction. */
    private String doWork(Work work) {
        AtomicReference<String> result = new AtomicReference<>();
        try (EntityManager em = emf.createEntityManager()) {
            em.unwrap(Session.class).doWork(c -> result.set(work.run(c)));
        }
        return result.get();
    }

    /** Until both replicas have applied the row {@code id} (they run a second behind). */
    private void awaitOnBothReplicas(int id) {
        for (int replica = 1; replica <= 2; replica++) {
            String node = TestCluster.replica(replica);
            HealthContract.awaitMillis(java.time.Duration.ofSeconds(15), () -> {
                try {
                    return cluster.queryInt(node, "select count(*) from holes where id = " + id) == 1;
                }
                catch (SQLException e) {
                    throw new AssertionError(e);
                }
            }, node + " applies row " + id);
        }
    }

    /** "count server" of the rows with {@code id}, by a fresh statement. */
    private String rowsWithId(Connection c, int id) throws SQLException {
        try (PreparedStatement read = c.prepareStatement("select count(*), " + identity() + " from holes where id = ?")) {
            read.setInt(1, id);
            return answer(read);
        }
    }

    private static String answer(PreparedStatement read) throws SQLException {
        try (ResultSet rs = read.executeQuery()) {
            rs.next();
            return rs.getLong(1) + " " + rs.getLong(2);
        }
    }

    private static String count(String answer) {
        return answer.substring(0, answer.indexOf(' '));
    }

    /** The node whose identity ends {@code answer} ("count identity" or "anything identity"). */
    private String server(String answer) {
        int identity = Integer.parseInt(answer.substring(answer.indexOf(' ') + 1));
        for (String node : cluster.nodes()) {
            try {
                if (cluster.serverIdentity(node) == identity) {
                    return node;
                }
            }
            catch (SQLException e) {
                return "server " + identity;
            }
        }
        return "server " + identity;
    }
}
