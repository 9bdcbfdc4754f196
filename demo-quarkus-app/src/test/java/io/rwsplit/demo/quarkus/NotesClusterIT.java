package io.rwsplit.demo.quarkus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.ReplicatedCluster;

/**
 * The notes application as users meet it: two processes of the packaged application (instances A and B) on the
 * replicated MariaDB cluster, sharing the cookie key and nothing else, over real HTTP with a client that keeps
 * cookies as a browser does and follows each redirect itself, to either instance. {@code @@server_id} is 1 on the
 * primary, 2 and 3 on the replicas.
 * <p>
 * Instance A has no lag limit, so replicas one second behind keep serving its reads; B has a lag limit of 2 s, so
 * that a paused replica turns LAGGING in its readiness check. The instances use their own database {@code quarkusit}:
 * the cluster extension recreates the {@code rwsplit} database before every test, which would break the schema of
 * applications that outlive one test.
 */
@ReplicatedCluster
class NotesClusterIT {

    private static final String DATABASE = "quarkusit";
    private static final String SECRET = "notes-cluster-it-cookie-key-0123456789";
    private static final String COOKIE = "RWSPLIT";
    private static final int ROUNDS = 30;
    private static final Set<Integer> REPLICAS = Set.of(2, 3);
    private static final int PRIMARY = 1;

    private static NotesApp a;
    private static NotesApp b;

    private final MariaDbCluster cluster;

    NotesClusterIT(MariaDbCluster cluster) {
        this.cluster = cluster;
    }

    @BeforeAll
    static void startTwoInstances(MariaDbCluster cluster) {
        cluster.sql(MariaDbCluster.PRIMARY, "DROP DATABASE IF EXISTS " + DATABASE + "; CREATE DATABASE " + DATABASE
                + " CHARACTER SET utf8mb4; GRANT ALL PRIVILEGES ON " + DATABASE + ".* TO '" + cluster.user() + "'@'%'");
        cluster.sync();
        a = NotesApp.start("a", properties(cluster, Duration.ZERO), environment(cluster));
        b = NotesApp.start("b", properties(cluster, Duration.ofSeconds(2)), environment(cluster));
    }

    private static Map<String, String> properties(MariaDbCluster cluster, Duration maxLag) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("quarkus.datasource.jdbc.url", url(cluster, MariaDbCluster.PRIMARY));
        p.put("quarkus.datasource.username", cluster.user());
        p.put("quarkus.rwsplit.replicas", url(cluster, MariaDbCluster.replica(1)) + "," + url(cluster, MariaDbCluster.replica(2)));
        p.put("quarkus.rwsplit.max-lag", maxLag.toMillis() + "ms");
        return p;
    }

    /** The secrets go in the environment, where no process listing shows them. */
    private static Map<String, String> environment(MariaDbCluster cluster) {
        return Map.of("QUARKUS_DATASOURCE_PASSWORD", cluster.password(), "QUARKUS_RWSPLIT_WEB_COOKIE_SECRET", SECRET);
    }

    private static String url(MariaDbCluster cluster, String node) {
        return "jdbc:mariadb://127.0.0.1:" + cluster.port(node) + "/" + DATABASE;
    }

    @AfterAll
    static void stopBothInstances() {
        try (NotesApp first = a; NotesApp second = b) {
            a = null;
            b = null;
        }
    }

    @Test
    void autocommitReadsGoToReplicasWhileWritesLocksAndTransactionsGoToThePrimary() throws SQLException {
        Browser browser = new Browser();
        // the instance learns from its probes that the replicas have its writes (earlier tests left them behind)
        awaitTrue(Duration.ofSeconds(30), () -> REPLICAS.contains(serverId(browser.get(a.port(), "/server-id/read"))),
                () -> "autocommit reads on A reach a replica");
        for (int i = 0; i < 10; i++) {
            assertServer(REPLICAS, browser.get(a.port(), "/server-id/read"), "autocommit read in a GET request");
        }
        assertServer(REPLICAS, browser.get(a.port(), "/server-id/read-replica"), "@ReadReplica read");
        assertServer(Set.of(PRIMARY), browser.get(a.port(), "/server-id/read-in-transaction"),
                "read in a read-write @Transactional method");
        assertServer(Set.of(PRIMARY), browser.get(a.port(), "/server-id/locking-read"),
                "SELECT ... FOR UPDATE in a @Transactional method");
        HttpResponse<String> readOnly = browser.get(a.port(), "/server-id/read-only-transaction");
        assertEquals(200, readOnly.statusCode(), readOnly.body());
        String[] servers = readOnly.body().split(" ");
        assertTrue(REPLICAS.contains(Integer.parseInt(servers[0])), "read in a @ReadReplica @Transactional method: " + readOnly.body());
        assertEquals(PRIMARY, Integer.parseInt(servers[1]), "locking read in a @ReadReplica @Transactional method");
        assertServer(Set.of(PRIMARY), browser.post(a.port(), "/server-id/read"), "autocommit read in a POST request");

        HttpResponse<String> created = browser.postForm(a.port(), "/notes", "text", "written-on-the-primary");
        assertEquals(303, created.statusCode(), created.body());
        assertEquals(1, cluster.queryInt(MariaDbCluster.PRIMARY,
                "select count(*) from " + DATABASE + ".note where text = 'written-on-the-primary'"), "the write is on the primary");
    }

    @Test
    void postRedirectGetOnOneInstanceShowsEveryNoteWithReplicasOneSecondBehind() throws SQLException {
        replicasOneSecondBehind();
        Browser browser = new Browser();
        Outcome outcome = new Outcome();
        for (int i = 0; i < ROUNDS; i++) {
            outcome.round(browser, a, a, "same-instance-" + i);
        }
        int lost = ROUNDS - notesOnPrimary("same-instance-%");
        System.out.printf("POST on A, redirect followed on A, replicas 1 s behind: %d rounds, %s, %d lost%n",
                ROUNDS, outcome, lost);
        outcome.assertNone();
        assertEquals(0, lost, "notes posted and missing from the primary");
    }

    @Test
    void postOnOneInstanceAndRedirectOnTheOtherShowsEveryNoteWithTheCookie() throws SQLException {
        replicasOneSecondBehind();
        Outcome withCookie = new Outcome();
        Outcome withoutCookie = new Outcome();
        for (int i = 0; i < ROUNDS; i++) {
            Browser browser = new Browser();
            withCookie.round(browser, a, b, "across-" + i);
            Browser forgetful = new Browser();
            withoutCookie.roundForgettingTheCookie(forgetful, a, b, "control-" + i);
        }
        int lost = ROUNDS - notesOnPrimary("across-%");
        System.out.printf("POST on A, redirect followed on B, replicas 1 s behind: %d rounds, %s, %d lost;"
                + " without the cookie (control): %s%n", ROUNDS, withCookie, lost, withoutCookie);
        withCookie.assertNone();
        assertEquals(0, lost, "notes posted and missing from the primary");
        assertTrue(!withoutCookie.stale.isEmpty(), "control: without the cookie B reads its lagging replicas");
    }

    @Test
    void readinessStaysUpAndShowsAPausedReplicaAsLagging() {
        Browser browser = new Browser();
        HttpResponse<String> health = browser.get(b.port(), "/q/health/ready");
        assertEquals(200, health.statusCode(), health.body());
        assertTrue(detail("replica1", "UP").matcher(health.body()).find(), health.body());
        assertTrue(detail("replica2", "UP").matcher(health.body()).find(), health.body());
        cluster.pause(1);
        try {
            Pattern lagging = detail("replica1", "LAGGING");
            String[] last = {health.body()};
            awaitTrue(Duration.ofSeconds(30), () -> {
                // writes on A move the primary on; replica1 applies none of them
                browser.postForm(a.port(), "/notes", "text", "while-replica1-is-paused");
                HttpResponse<String> ready = browser.get(b.port(), "/q/health/ready");
                last[0] = ready.statusCode() + " " + ready.body();
                return ready.statusCode() == 200 && lagging.matcher(ready.body()).find();
            }, () -> "replica1 LAGGING on B's readiness check, B still UP; the last answer: " + last[0]);
            assertTrue(Pattern.compile("\"status\"\\s*:\\s*\"UP\"").matcher(last[0]).find(), last[0]);
            assertTrue(detail("replica2", "UP").matcher(last[0]).find(), last[0]);
        }
        finally {
            cluster.resume(1);
        }
    }

    private void replicasOneSecondBehind() {
        cluster.delay(1, 1);
        cluster.delay(2, 1);
    }

    private int notesOnPrimary(String like) throws SQLException {
        return cluster.queryInt(MariaDbCluster.PRIMARY, "select count(*) from " + DATABASE + ".note where text like '" + like + "'");
    }

    /** The readiness check's detail of {@code replica}, in state {@code state}. */
    private static Pattern detail(String replica, String state) {
        return Pattern.compile("\"" + replica + "\"\\s*:\\s*\"" + state + ",");
    }

    private static int serverId(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response.body());
        return Integer.parseInt(response.body().strip());
    }

    private static void assertServer(Set<Integer> expected, HttpResponse<String> response, String what) {
        int server = serverId(response);
        assertTrue(expected.contains(server), what + ": served by @@server_id " + server + ", expected one of " + expected);
    }

    /** Polls {@code condition} until it holds, failing after {@code timeout}: servers' state, no event to wait on. */
    private static void awaitTrue(Duration timeout, BooleanSupplier condition, Supplier<String> what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what.get());
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting: " + what.get(), e);
            }
        }
    }

    /**
     * The counts of post/redirect/get rounds: failed (the POST not answered 303, or the page neither 200 nor 404) and
     * stale (the page did not show the note just posted: 404, or another text).
     */
    private static final class Outcome {

        int failed;
        /** The texts of the stale rounds. */
        final List<String> stale = new ArrayList<>();

        /** POST a note on {@code post}, follow the redirect on {@code get} with the browser's cookies. */
        void round(Browser browser, NotesApp post, NotesApp get, String text) {
            HttpResponse<String> created = browser.postForm(post.port(), "/notes", "text", text);
            if (created.statusCode() != 303) {
                failed++;
                return;
            }
            if (browser.cookie(COOKIE).isEmpty()) {
                throw new AssertionError("a POST that wrote set no " + COOKIE + " cookie: " + created.headers().map());
            }
            page(browser.get(get.port(), Browser.redirectPath(created)), text);
        }

        /** The same, but the browser drops its cookies before it follows the redirect. */
        void roundForgettingTheCookie(Browser browser, NotesApp post, NotesApp get, String text) {
            HttpResponse<String> created = browser.postForm(post.port(), "/notes", "text", text);
            if (created.statusCode() != 303) {
                failed++;
                return;
            }
            browser.clearCookies();
            page(browser.get(get.port(), Browser.redirectPath(created)), text);
        }

        private void page(HttpResponse<String> page, String text) {
            if (page.statusCode() == 404 || page.statusCode() == 200 && !page.body().contains(">" + text + "<")) {
                stale.add(text);
            } else if (page.statusCode() != 200) {
                failed++;
            }
        }

        void assertNone() {
            assertEquals(0, failed, "rounds whose POST or page failed");
            assertEquals(List.of(), stale, "pages that did not show the note just posted");
        }

        @Override
        public String toString() {
            return failed + " failed, " + stale.size() + " stale";
        }
    }
}
