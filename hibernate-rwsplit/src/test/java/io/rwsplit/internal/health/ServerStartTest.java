package io.rwsplit.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ServerStartTest {

    private static ServerStart.Run postgres(long micros) {
        return new ServerStart.Run(micros, 0, true);
    }

    private static ServerStart.Run mariadb(long seconds, long connectionId) {
        return new ServerStart.Run(seconds * 1_000_000, connectionId, false);
    }

    @Test
    void aPostgresStartTimeThatMovesAtAllIsAnotherRun() {
        assertFalse(postgres(1_000_000_123L).restartedBy(postgres(1_000_000_123L)));
        assertTrue(postgres(1_000_000_123L).restartedBy(postgres(1_000_000_124L)), "restarted within the same second");
    }

    @Test
    void aMariaDbRestartWithinSecondsIsToldByItsConnectionIdsStartingAgain() {
        ServerStart.Run before = mariadb(1_000, 57);
        assertFalse(before.restartedBy(mariadb(1_001, 80)), "uptime in whole seconds, ids growing: one run");
        assertTrue(before.restartedBy(mariadb(1_001, 3)), "ids from 1 again: restarted");
        assertTrue(before.restartedBy(mariadb(1_010, 90)), "started ten seconds later: replaced or restarted");
    }

    @Test
    void theHighestConnectionIdOfARunIsKept() {
        assertEquals(80, mariadb(1_000, 57).highest(mariadb(1_000, 80)).connectionId());
        assertEquals(57, mariadb(1_000, 57).highest(mariadb(1_000, 12)).connectionId());
    }
}
