package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.Test;

import com.zaxxer.hikari.HikariDataSource;

import io.rwsplit.RoutingStatistics;
import io.rwsplit.RwSplit;
import io.rwsplit.internal.replica.ReplicaNode;

/** Sessions on 8 threads: per-session statistics add up to the factory's, and no connection stays borrowed. */
class ConcurrencyTest {

    @Test
    void concurrentSessionsCountCorrectlyAndReturnEveryConnection() throws Exception {
        H2Pair h2 = new H2Pair();
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.connection.provider_class", "hikaricp");
        settings.put("hibernate.rwsplit.replicas", "a=" + h2.replicaUrl + " b=" + h2.replica2Url);
        // counting, not consistency: the other threads' writes must not hold these reads on the primary
        settings.put("hibernate.rwsplit.consistency_scope", "session");
        try (EntityManagerFactory emf = h2.factory(settings)) {
            int threads = 8;
            int iterations = 50;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    start.await();
                    long primary = 0;
                    long replica = 0;
                    for (int i = 0; i < iterations; i++) {
                        try (EntityManager em = emf.createEntityManager()) {
                            em.find(Person.class, 1L);
                            em.createQuery("select count(p) from Person p", Long.class).getSingleResult();
                            em.getTransaction().begin();
                            em.persist(new Person("t" + thread + "-" + i));
                            em.find(Person.class, 2L);
                            em.getTransaction().commit();
                            RoutingStatistics s = RwSplit.statistics(em);
                            primary += s.primaryStatements();
                            replica += s.replicaStatements();
                        }
                    }
                    return new long[] {primary, replica};
                }));
            }
            start.countDown();
            long primary = 0;
            long replica = 0;
            for (Future<long[]> f : results) {
                long[] r = f.get(60, TimeUnit.SECONDS);
                primary += r[0];
                replica += r[1];
            }
            pool.shutdown();
            RoutingStatistics factory = RwSplit.statistics(emf);
            assertEquals(primary, factory.primaryStatements());
            assertEquals(replica, factory.replicaStatements());
            assertEquals(threads * iterations * 2L, factory.replicaStatements());
            assertEquals(factory.replicaStatements(), factory.byReplica().values().stream().mapToLong(Long::longValue).sum());

            RoutingConnectionProvider provider = emf.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                    .requireService(ConnectionProvider.class).unwrap(RoutingConnectionProvider.class);
            HikariDataSource primaryPool = provider.primaryProvider().unwrap(HikariDataSource.class);
            assertEquals(0, primaryPool.getHikariPoolMXBean().getActiveConnections());
            for (ReplicaNode node : provider.router().replicas().nodes()) {
                assertEquals(0, ((HikariDataSource) node.dataSource()).getHikariPoolMXBean().getActiveConnections(),
                        node.name());
            }
            assertEquals(2 + threads * iterations, h2.count(h2.primaryUrl, "person"));
        }
        finally {
            h2.close();
        }
    }
}
