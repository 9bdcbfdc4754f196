package io.rwsplit.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class DemoOptionsTest {

    @Test
    void runsEmbeddedWithDefaultsWhenGivenNoOptions() {
        DemoOptions options = DemoOptions.parse();
        assertFalse(options.cluster());
        assertEquals(8, options.users());
        assertEquals(20, options.iterations());
        assertEquals(Duration.ofMillis(200), options.embeddedDelay());
        assertNull(options.maxThinkTime());
        assertTrue(options.backend() instanceof EmbeddedBackend);
    }

    @Test
    void clusterModeTakesPortReplicasAndDelay() {
        DemoOptions options = DemoOptions.parse("--cluster", "--cluster-port", "3337", "--delay", "1");
        assertTrue(options.cluster());
        assertEquals(3337, options.clusterPort());
        assertEquals(1, options.clusterDelaySeconds());
        assertEquals(10, options.iterations());
        assertEquals("jdbc:mariadb://127.0.0.1:3337/rwsplit", options.backend().primary().url());
        assertEquals("jdbc:mariadb://127.0.0.1:3339/rwsplit", options.backend().replicas().get(1).url());
    }

    @Test
    void clusterPostgresUsesThePostgresClusterOnItsOwnPorts() {
        DemoOptions options = DemoOptions.parse("--cluster", "postgres", "--delay", "2");
        assertEquals(ClusterKind.POSTGRES, options.clusterKind());
        assertEquals(5441, options.clusterPort());
        assertEquals("jdbc:postgresql://127.0.0.1:5441/rwsplit", options.backend().primary().url());
        assertEquals("jdbc:postgresql://127.0.0.1:5443/rwsplit", options.backend().replicas().get(1).url());
        assertTrue(options.backend().description().contains("recovery_min_apply_delay=2 s"));
        assertEquals(ClusterKind.MARIADB, DemoOptions.parse("--cluster", "--users", "2").clusterKind());
        assertEquals(5451, DemoOptions.parse("--cluster", "postgresql", "--cluster-port", "5451").clusterPort());
    }

    @Test
    void rejectsUnknownOptionsAndBadNumbersNamingThem() {
        assertEquals("unknown option '--fast' (see --help)",
                assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--fast")).getMessage());
        assertEquals("--users must be at least 1, not 0",
                assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--users", "0")).getMessage());
        assertEquals("--delay-ms takes a whole number >= 0, not '-5'",
                assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--delay-ms", "-5")).getMessage());
        assertEquals("--iterations needs a value",
                assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--iterations")).getMessage());
    }

    @Test
    void rejectsClusterDelayWithoutCluster() {
        assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse("--delay", "1"));
    }
}
