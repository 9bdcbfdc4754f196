package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.testing.FakeClock;

/** The Redis store without a Redis server: its keys, and that no caller waits for a connection. */
class RedisConsistencyStoreTest {

    private final RedisConsistencyStore store = new RedisConsistencyStore("redis://127.0.0.1:" + closedPort(),
            "rwsplit:", Duration.ofMinutes(1), Duration.ofMillis(500), new FakeClock());

    @AfterEach
    void close() {
        store.close();
    }

    private static int closedPort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void keysHoldTheLabelAndKindButNeitherSessionIdsNorUserNames() {
        String key = store.key("default:session:8F3A61C0D2B94E77");
        assertTrue(key.startsWith("rwsplit:default:session:"), key);
        assertFalse(key.contains("8F3A61C0D2B94E77"), key);
        String user = store.key("tenant-a:principal:alice@example.com");
        assertTrue(user.startsWith("rwsplit:tenant-a:principal:"), user);
        assertFalse(user.contains("alice"), user);
        assertTrue(store.key("default:user-1").startsWith("rwsplit:default:scope:"), "a scope without a kind");
        assertTrue(store.key("unit/orders/default").startsWith("rwsplit:default:unit:"));
    }

    /** Every instance (every JVM, every version) must name a scope's list alike: the hash has no salt. */
    @Test
    void keysAreTheSameInEveryInstance() {
        assertEquals("rwsplit:default:session:" + RedisConsistencyStore.hash("default:session:abc"),
                store.key("default:session:abc"));
        assertEquals("Tasq8OyAhqpuoKkOoW071R", RedisConsistencyStore.hash("default:session:abc"));
        assertEquals(22, RedisConsistencyStore.hash("x").length());
    }

    @Test
    void scopesThatDifferOnlyInTheirIdHaveDifferentKeys() {
        assertFalse(store.key("default:session:a").equals(store.key("default:session:b")));
        assertFalse(store.key("a:scope").equals(store.key("b:scope")), "labels differ");
    }

    @Test
    void commandsFailAtOnceWhileNotConnected() {
        // a connect would take up to the 500 ms timeout: neither a read nor a record waits for one
        assertTimeoutPreemptively(Duration.ofMillis(300), () -> {
            for (int i = 0; i < 5; i++) {
                assertThrows(IllegalStateException.class, () -> store.read("default:session:abc"));
                assertThrows(IllegalStateException.class,
                        () -> store.record("default:session:abc", ConsistencyToken.withoutPosition(1)));
            }
        });
    }

    @Test
    void failuresNameNoScope() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> store.read("default:session:SECRET"));
        assertFalse(e.getMessage().contains("SECRET"), e.getMessage());
    }
}
