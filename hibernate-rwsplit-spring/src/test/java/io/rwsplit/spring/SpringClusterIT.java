package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import io.rwsplit.spring.app.ParentRepository;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * The user flows of a Spring Boot + Spring Data JPA application against the replicated MariaDB cluster, both
 * replicas applying every write one second late and no lag limit (so lagging replicas keep serving reads), over
 * real HTTP. Two instances of the application share the cookie key and nothing else (no shared consistency store,
 * no HTTP session). {@code @@server_id} is 1 on the primary, 2 and 3 on the replicas.
 * <p>
 * The applications use their own database {@code springit}: the cluster extension recreates the {@code rwsplit}
 * database before every test, which would break the pools of applications that outlive one test.
 */
@ReplicatedCluster
class SpringClusterIT {

    private static final String DATABASE = "springit";
    private static final String SECRET = "spring-cluster-it-secret-0123456789";
    private static final int ROUNDS = 50;

    private static ConfigurableApplicationContext a;
    private static ConfigurableApplicationContext b;
    private static int portA;
    private static int portB;

    private final MariaDbCluster cluster;

    SpringClusterIT(MariaDbCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    static void start(MariaDbCluster cluster) {
        cluster.sql(MariaDbCluster.PRIMARY, "CREATE DATABASE IF NOT EXISTS " + DATABASE + " CHARACTER SET utf8mb4;"
                + " GRANT ALL PRIVILEGES ON " + DATABASE + ".* TO '" + cluster.user() + "'@'%'");
        cluster.sync();
        a = Apps.start(true, properties(cluster, "update", Duration.ZERO));
        portA = Apps.port(a);
        // instance B: a lag limit, so that the health of a paused replica turns LAGGING there
        b = Apps.start(true, properties(cluster, "none", Duration.ofSeconds(2)));
        portB = Apps.port(b);
    }

    private static Map<String, Object> properties(MariaDbCluster cluster, String ddl, Duration maxLag) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("spring.datasource.url", url(cluster, MariaDbCluster.PRIMARY));
        p.put("spring.datasource.username", cluster.user());
        p.put("spring.datasource.password", cluster.password());
        p.put("spring.jpa.hibernate.ddl-auto", ddl);
        for (int i = 1; i <= cluster.replicaCount(); i++) {
            p.put("spring.rwsplit.replicas[" + (i - 1) + "].url", url(cluster, MariaDbCluster.replica(i)));
        }
        p.put("spring.rwsplit.health.max-lag", maxLag.toMillis() + "ms");
        p.put("spring.rwsplit.web.cookie.secret", SECRET);
        p.put("management.endpoints.web.exposure.include", "health,metrics,rwsplit");
        p.put("management.endpoint.health.show-details", "always");
        return p;
    }

    private static String url(MariaDbCluster cluster, String node) {
        return "jdbc:mariadb://127.0.0.1:" + cluster.port(node) + "/" + DATABASE;
    }

    @AfterAll
    static void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    @BeforeEach
    void replicasOneSecondBehind() {
        cluster.delay(1, 1);
        cluster.delay(2, 1);
    }

    @Test
    void createThenRedirectReadsTheNewParent() {
        Http http = new Http("RWSPLIT");
        int failed = 0;
        for (int i = 0; i < ROUNDS; i++) {
            HttpResponse<String> created = http.post(portA, "/parents", "name", "created-" + i);
            assertEquals(303, created.statusCode(), created.body());
            if (http.get(portA, location(created)).statusCode() != 200) {
                failed++;
            }
        }
        System.out.printf("create -> redirect -> page: %d failed of %d%n", failed, ROUNDS);
        assertEquals(0, failed, "pages that did not show the parent just created");
    }

    @Test
    void addChildThenRedirectShowsTheChild() {
        Http http = new Http("RWSPLIT");
        int stale = 0;
        for (int i = 0; i < ROUNDS; i++) {
            String page = location(http.post(portA, "/parents", "name", "with-child-" + i));
            HttpResponse<String> added = http.post(portA, page + "/children", "name", "child-" + i);
            assertEquals(303, added.statusCode(), added.body());
            if (!http.get(portA, location(added)).body().contains("child-" + i)) {
                stale++;
            }
        }
        System.out.printf("add child -> redirect -> page: %d stale of %d%n", stale, ROUNDS);
        assertEquals(0, stale, "pages that did not show the child just added");
    }

    @Test
    void twoBackToBackChildAdditionsLoseNothing() throws SQLException {
        Http http = new Http("RWSPLIT");
        int lost = 0;
        int rounds = ROUNDS / 2;
        for (int i = 0; i < rounds; i++) {
            String page = location(http.post(portA, "/parents", "name", "twice-" + i));
            long id = Long.parseLong(page.substring(page.lastIndexOf('/') + 1));
            assertEquals(303, http.post(portA, page + "/children", "name", "first").statusCode());
            assertEquals(303, http.post(portA, page + "/children", "name", "second").statusCode());
            lost += 2 - cluster.queryInt(MariaDbCluster.PRIMARY, "select count(*) from " + DATABASE + ".child where parent_id = " + id);
        }
        System.out.printf("two back-to-back child additions: %d lost of %d%n", lost, 2 * rounds);
        assertEquals(0, lost, "children lost by a handler that read a stale parent and merged it");
    }

    @Test
    void postOnOneInstanceAndFollowTheRedirectOnAnotherWithTheCookie() {
        int stale = 0;
        int staleWithoutCookie = 0;
        for (int i = 0; i < ROUNDS; i++) {
            Http http = new Http("RWSPLIT");
            HttpResponse<String> created = http.post(portA, "/parents", "name", "hop-" + i);
            if (http.get(portB, location(created)).statusCode() != 200) {
                stale++;
            }
            Http forgetful = new Http("RWSPLIT");
            HttpResponse<String> again = forgetful.post(portA, "/parents", "name", "hop-control-" + i);
            forgetful.cookie(null);
            if (forgetful.get(portB, location(again)).statusCode() != 200) {
                staleWithoutCookie++;
            }
        }
        System.out.printf("POST on A, redirect followed on B: %d stale of %d with the cookie, %d without it%n",
                stale, ROUNDS, staleWithoutCookie);
        assertEquals(0, stale, "pages on B that did not show the parent created on A");
        assertTrue(staleWithoutCookie > 0, "control: without the cookie B reads its lagging replicas");
    }

    /**
     * A third instance without the shared secret signs with its own random key: a cookie of instance A is one it
     * cannot verify. That request reads from the primary (never a wrong page), gets instance C's cookie, and C says
     * why once at WARN; with C's cookie the client's reads reach C's replicas again.
     */
    @Test
    void withoutTheSharedSecretACookieOfAnotherInstanceCostsOneRequestNeverAWrongPage() throws InterruptedException {
        Map<String, Object> own = properties(cluster, "none", Duration.ZERO);
        own.remove("spring.rwsplit.web.cookie.secret");
        int rounds = 20;
        int failed = 0;
        try (io.rwsplit.testing.LogCapture logs = io.rwsplit.testing.LogCapture.attach(
                "io.rwsplit.spring.ConsistencyFilter", ch.qos.logback.classic.Level.WARN);
                ConfigurableApplicationContext c = Apps.start(true, own)) {
            int portC = Apps.port(c);
            Http http = null;
            String page = null;
            for (int i = 0; i < rounds; i++) {
                http = new Http("RWSPLIT");
                HttpResponse<String> created = http.post(portA, "/parents", "name", "keyless-" + i);
                String signedByA = http.cookie();
                page = location(created);
                if (http.get(portC, page).statusCode() != 200) {
                    failed++;
                }
                assertTrue(http.cookie() != null && !http.cookie().equals(signedByA), "C replaced A's cookie");
            }
            System.out.printf("POST on A, redirect followed on C without the shared secret: %d failed of %d%n",
                    failed, rounds);
            assertEquals(0, failed, "pages on C that did not show the parent created on A");
            assertEquals(1, logs.lines().stream().filter(l -> l.contains("spring.rwsplit.web.cookie.secret")).count(),
                    () -> String.join("\n", logs.lines()));
            io.rwsplit.RoutingStatistics statsC = io.rwsplit.RwSplit.statistics(
                    c.getBean(jakarta.persistence.EntityManagerFactory.class));
            assertTrue(statsC.count(io.rwsplit.RouteReason.UNTRUSTED_TOKEN_PRIMARY) >= rounds, statsC.byReason()::toString);
            long before = statsC.replicaStatements();
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (statsC.replicaStatements() == before && System.nanoTime() < deadline) {
                http.get(portC, page);
                Thread.sleep(100);   // the replaced cookie's time token holds reads on the primary for a moment
            }
            assertTrue(statsC.replicaStatements() > before, "with C's cookie the client's reads reach the replicas again: "
                    + statsC.byReason());
        }
    }

    @Test
    void readReplicaRepositoryMethodIsServedByAReplicaAndUsePrimaryByThePrimary() {
        // This test asserts replica reads under the unit-wide read-your-writes default, so it sets up replicas that
        // have applied every write of the unit (earlier tests leave them one second behind the unit's last write).
        cluster.resume(1);
        cluster.resume(2);
        cluster.delay(1, 0);
        cluster.delay(2, 0);
        cluster.sync();
        ParentRepository parents = a.getBean(ParentRepository.class);
        assertEquals(1, parents.serverIdInWriteTransaction(), "control: a read-write transaction runs on the primary");
        // The module learns that the replicas caught up from its probes: allow it a generous bound to do so.
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!Set.of(2L, 3L).contains(parents.serverIdOnReplica()) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        for (int i = 0; i < 10; i++) {
            assertTrue(Set.of(2L, 3L).contains(parents.serverIdOnReplica()), "@ReadReplica, no caller transaction");
        }
    }

    @Test
    void healthShowsEachReplicaAndAPausedOneAsLaggingWhileStayingUp() throws InterruptedException {
        Http http = new Http("RWSPLIT");
        String health = http.get(portB, "/actuator/health/rwsplit").body();
        assertTrue(health.contains("\"status\":\"UP\""), health);
        assertTrue(health.contains("\"replica1\":{\"state\":"), health);
        assertTrue(health.contains("\"replica2\":{\"state\":"), health);
        cluster.pause(1);
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            http.post(portA, "/parents", "name", "while-paused");
            while (!health.contains("\"replica1\":{\"state\":\"LAGGING\"") && System.nanoTime() < deadline) {
                Thread.sleep(200); // polling a real server's health; no event to wait on
                http.post(portA, "/parents", "name", "while-paused");
                health = http.get(portB, "/actuator/health/rwsplit").body();
            }
            assertTrue(health.contains("\"replica1\":{\"state\":\"LAGGING\""), health);
            assertTrue(health.contains("\"status\":\"UP\""), "a lagging replica does not make the application DOWN: " + health);
        }
        finally {
            cluster.resume(1);
        }
    }

    @Test
    void metricsListTheModulesMetersAndTheEndpointItsStatistics() {
        Http http = new Http("RWSPLIT");
        http.get(portA, "/parents/1");
        String metrics = http.get(portA, "/actuator/metrics").body();
        for (String meter : new String[] {"rwsplit.statements", "rwsplit.replica.statements", "rwsplit.replica.lag",
                "rwsplit.replica.state", "rwsplit.replica.ejections", "rwsplit.fallbacks", "rwsplit.replica.share",
                "rwsplit.reads.replica.share"}) {
            assertTrue(metrics.contains("\"" + meter + "\""), meter + " missing from " + metrics);
        }
        String statements = http.get(portA, "/actuator/metrics/rwsplit.statements").body();
        assertTrue(statements.contains("entityManagerFactory"), statements);
        String endpoint = http.get(portA, "/actuator/rwsplit").body();
        assertTrue(endpoint.contains("\"byReason\""), endpoint);
        assertTrue(endpoint.contains("\"replica1\""), endpoint);
        assertTrue(endpoint.contains("\"readReplicaShare\"") && endpoint.contains("\"queryShapes\"")
                && endpoint.contains("\"primaryReadShapes\""), endpoint);
        assertTrue(endpoint.contains("from parent"), "the shapes of the application's queries: " + endpoint);
    }

    private static String location(HttpResponse<String> response) {
        return response.headers().firstValue("Location").orElseThrow(() -> new AssertionError("no redirect: " + response));
    }
}
