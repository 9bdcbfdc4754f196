package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.LockModeType;

import org.hibernate.Session;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rwsplit.Consistency;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;
import io.rwsplit.internal.hibernate.RoutingConnectionProvider;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.MariaDbCluster.JdbcDriver;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * The routing rules against a real GTID-replicated MariaDB cluster, with both JDBC drivers. The server
 * that answered is identified by {@code @@server_id} (1 = primary), never guessed.
 */
@ReplicatedCluster
class RoutingIT {

    private static final int PRIMARY_ID = 1;

    private final MariaDbCluster cluster;
    private EntityManagerFactory emf;

    RoutingIT(MariaDbCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeEach
    void createSchema() throws SQLException {
        cluster.update(MariaDbCluster.PRIMARY, "create table account (id bigint auto_increment primary key,"
                + " owner varchar(100) not null, balance int not null)");
        cluster.update(MariaDbCluster.PRIMARY, "insert into account (owner, balance) values ('alice', 100), ('bob', 50)");
        cluster.sync();
    }

    @AfterEach
    void closeFactory() {
        if (emf != null) {
            emf.close();
        }
    }

    private EntityManagerFactory factory(JdbcDriver driver) {
        return factory(driver, Map.of());
    }

    private EntityManagerFactory factory(JdbcDriver driver, Map<String, Object> extra) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("routing-it")
                .managedClass(Account.class)
                .property("jakarta.persistence.jdbc.url", cluster.jdbcUrl(MariaDbCluster.PRIMARY, driver))
                .property("jakarta.persistence.jdbc.user", cluster.user())
                .property("jakarta.persistence.jdbc.password", cluster.password())
                .property("hibernate.rwsplit.replicas", cluster.jdbcUrl(MariaDbCluster.replica(1), driver) + "\n"
                        + cluster.jdbcUrl(MariaDbCluster.replica(2), driver))
                .property("hibernate.rwsplit.pool.maximumPoolSize", "4");
        if (driver == JdbcDriver.MYSQL) {
            // mysql-connector-j reports MariaDB as "5.5.5-10.11...": name the dialect, or Hibernate renders MySQL 5.5 SQL
            cfg.property("hibernate.dialect", "org.hibernate.dialect.MariaDBDialect");
        }
        extra.forEach(cfg::property);
        emf = cfg.createEntityManagerFactory();
        return emf;
    }

    private static long reason(EntityManager em, RouteReason reason) {
        return RwSplit.statistics(em).byReason().getOrDefault(reason.name(), 0L);
    }

    @ParameterizedTest
    @EnumSource(JdbcDriver.class)
    void findAndQueryOutsideTransactionAreServedByReplicas(JdbcDriver driver) throws InterruptedException {
        EntityManagerFactory f = factory(driver);
        // the default balancer keeps each thread to one replica: an application's threads, until both replicas served
        Set<Integer> servers = ReaderThreads.eachOnOneServerUntil(2, served -> {
            for (int i = 0; i < 4; i++) {
                try (EntityManager em = f.createEntityManager()) {
                    served.add(em.find(Account.class, 1L).servedBy);
                    served.addAll(em.createQuery("select a.servedBy from Account a", Integer.class).getResultList());
                }
            }
        });
        assertEquals(Set.of(2, 3), servers, "the threads' reads over both replicas, none on the primary");
    }

    @ParameterizedTest
    @EnumSource(JdbcDriver.class)
    void nativeQueryWithPrimaryHintIsServedByPrimary(JdbcDriver driver) {
        try (EntityManager em = factory(driver).createEntityManager()) {
            Number replica = (Number) em.createNativeQuery("select @@server_id").getSingleResult();
            Number primary = (Number) em.createNativeQuery("/* rwsplit:primary */ select @@server_id").getSingleResult();
            assertNotEquals(PRIMARY_ID, replica.intValue());
            assertEquals(PRIMARY_ID, primary.intValue());
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDriver.class)
    void readWriteTransactionReadsPrimaryAndSeesItsOwnUncommittedWrites(JdbcDriver driver) throws SQLException {
        try (EntityManager em = factory(driver).createEntityManager()) {
            em.getTransaction().begin();
            Account alice = em.find(Account.class, 1L);
            assertEquals(PRIMARY_ID, alice.servedBy);
            em.persist(new Account("carol", 10));
            long count = em.createQuery("select count(a) from Account a", Long.class).getSingleResult();
            assertEquals(3, count, "the transaction sees its own uncommitted insert");
            assertEquals(2, cluster.queryInt(MariaDbCluster.PRIMARY, "select count(*) from account"), "not committed yet");
            em.getTransaction().commit();
            assertEquals(0, RwSplit.statistics(em).replicaStatements());
        }
        cluster.sync();
        assertEquals(3, cluster.queryInt(MariaDbCluster.replica(1), "select count(*) from account"));
    }

    @ParameterizedTest
    @EnumSource(JdbcDriver.class)
    void readOnlyTransactionReadsAllHitOneReplica(JdbcDriver driver) {
        EntityManagerFactory f = factory(driver);
        for (int round = 0; round < 3; round++) {
            try (EntityManager em = f.createEntityManager()) {
                em.unwrap(Session.class).setDefaultReadOnly(true);
                em.getTransaction().begin();
                Set<Integer> servers = new HashSet<>();
                for (int i = 0; i < 6; i++) {
                    em.clear();
                    servers.add(em.find(Account.class, 1L + i % 2).servedBy);
                    servers.add(((Number) em.createNativeQuery("select @@server_id").getSingleResult()).intValue());
                }
                em.getTransaction().commit();
                assertEquals(1, servers.size(), "one replica for the whole read-only transaction: " + servers);
                assertNotEquals(PRIMARY_ID, servers.iterator().next());
                assertEquals(12, reason(em, RouteReason.READ_ONLY_TRANSACTION));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDriver.class)
    void pessimisticLocksAreTakenOnPrimary(JdbcDriver driver) {
        try (EntityManager em = factory(driver).createEntityManager()) {
            em.getTransaction().begin();
            assertEquals(PRIMARY_ID, em.find(Account.class, 1L, LockModeType.PESSIMISTIC_WRITE).servedBy);
            assertEquals(PRIMARY_ID, em.find(Account.class, 2L, LockModeType.PESSIMISTIC_READ).servedBy);
            em.getTransaction().commit();
        }
        try (EntityManager em = emf.createEntityManager()) {
            Object id = RwSplit.onReplica(em, () -> em.createNativeQuery(
                    "select @@server_id from account where id = 1 for update").getSingleResult());
            assertEquals(PRIMARY_ID, ((Number) id).intValue(), "a locking read never goes to a replica");
            assertEquals(1, reason(em, RouteReason.LOCKING_READ));
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDriver.class)
    void writesGoToPrimaryAndReplicate(JdbcDriver driver) throws SQLException {
        try (EntityManager em = factory(driver).createEntityManager()) {
            em.getTransaction().begin();
            em.persist(new Account("dave", 1));
            em.find(Account.class, 2L).balance = 75;
            em.getTransaction().commit();
            em.getTransaction().begin();
            assertEquals(1, em.createQuery("delete from Account a where a.owner = 'alice'").executeUpdate());
            em.getTransaction().commit();
        }
        assertEquals(2, cluster.queryInt(MariaDbCluster.PRIMARY, "select count(*) from account"));
        cluster.sync();
        for (int r = 1; r <= cluster.replicaCount(); r++) {
            assertEquals(75, cluster.queryInt(MariaDbCluster.replica(r), "select balance from account where owner = 'bob'"));
            assertEquals(0, cluster.queryInt(MariaDbCluster.replica(r), "select count(*) from account where owner = 'alice'"));
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDriver.class)
    void replicaConnectionsAreReadOnlyOnTheServer(JdbcDriver driver) throws SQLException {
        EntityManagerFactory f = factory(driver);
        RoutingConnectionProvider provider = f.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                .requireService(ConnectionProvider.class).unwrap(RoutingConnectionProvider.class);
        for (ReplicaNode node : provider.router().replicas().nodes()) {
            try (Connection c = node.dataSource().getConnection(); Statement s = c.createStatement()) {
                assertTrue(c.isReadOnly(), "pool hands out read-only connections");
                try (ResultSet rs = s.executeQuery("select @@global.read_only")) {
                    rs.next();
                    assertEquals(1, rs.getInt(1), node.name() + " is a read-only server");
                }
                SQLException e = assertThrows(SQLException.class,
                        () -> s.executeUpdate("insert into account (owner, balance) values ('intruder', 0)"));
                assertTrue(e.getMessage().toLowerCase().contains("read"), e.getMessage());
            }
        }
        assertEquals(0, cluster.queryInt(MariaDbCluster.replica(1), "select count(*) from account where owner = 'intruder'"));
    }

    @Test
    void replicationLagIsRealAndAReplicaReadRightAfterCommitSeesTheOldRow() throws SQLException {
        // no lag limit: with max_lag the monitor ejects both lagging replicas about a second after the delay, and
        // whether the eventual read still met one would depend on how fast the machine got from the delay to the read
        EntityManagerFactory f = factory(JdbcDriver.MARIADB, Map.of("hibernate.rwsplit.max_lag", "0"));
        cluster.delay(1, 2);
        cluster.delay(2, 2);
        try (EntityManager em = f.createEntityManager()) {
            em.getTransaction().begin();
            em.find(Account.class, 1L).balance = 999;
            em.getTransaction().commit();
        }
        try (EntityManager em = f.createEntityManager()) {
            // the default would read it from the primary (the unit wrote it): eventual shows the replica's state
            RwSplit.consistency(em, Consistency.eventual());
            Account stale = em.find(Account.class, 1L);
            assertNotEquals(PRIMARY_ID, stale.servedBy);
            assertEquals(100, stale.balance, "the replica has not applied the commit yet: this is the stale read");
        }
        cluster.sync();
        try (EntityManager em = f.createEntityManager()) {
            assertEquals(999, em.find(Account.class, 1L).balance);
        }
    }

    @Test
    void closingTheFactoryLeavesNoApplicationConnectionOpen() {
        EntityManagerFactory f = factory(JdbcDriver.MARIADB);
        try (EntityManager em = f.createEntityManager()) {
            em.find(Account.class, 1L);
            em.getTransaction().begin();
            em.persist(new Account("erin", 5));
            em.getTransaction().commit();
        }
        f.close();
        emf = null;
        for (String node : cluster.nodes()) {
            String open = cluster.sql(node, "select count(*) from information_schema.processlist where user = 'rwsplit'").trim();
            assertEquals("0", open, "connections of the application user left open on " + node);
        }
    }
}
