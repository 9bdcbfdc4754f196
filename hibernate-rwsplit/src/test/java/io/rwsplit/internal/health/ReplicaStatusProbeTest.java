package io.rwsplit.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.rwsplit.spi.LagSample;

class ReplicaStatusProbeTest {

    private static Map<String, String> row(String... kv) {
        Map<String, String> row = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < kv.length; i += 2) {
            row.put(kv[i], kv[i + 1]);
        }
        return row;
    }

    @Test
    void readsMariaDbColumns() {
        LagSample s = ReplicaStatusProbe.parse(List.of(row("Slave_IO_Running", "Yes", "Slave_SQL_Running", "Yes",
                "Seconds_Behind_Master", "3")));
        assertFalse(s.isBroken());
        assertEquals(3_000_000, s.lagMicros());
    }

    @Test
    void readsMySql8Columns() {
        LagSample s = ReplicaStatusProbe.parse(List.of(row("Replica_IO_Running", "Yes", "Replica_SQL_Running", "Yes",
                "Seconds_Behind_Source", "0")));
        assertEquals(LagSample.of(0), s);
    }

    @Test
    void nullLagIsBrokenNotZero() {
        Map<String, String> row = new HashMap<>(row("Slave_IO_Running", "Yes", "Slave_SQL_Running", "Yes"));
        row.put("Seconds_Behind_Master", null);
        LagSample s = ReplicaStatusProbe.parse(List.of(row));
        assertTrue(s.isBroken(), s.toString());
    }

    @Test
    void stoppedSqlThreadIsBrokenEvenWithLagZero() {
        LagSample s = ReplicaStatusProbe.parse(List.of(row("Slave_IO_Running", "Yes", "Slave_SQL_Running", "No",
                "Seconds_Behind_Master", "0", "Last_SQL_Error", "Duplicate entry")));
        assertTrue(s.isBroken());
        assertTrue(s.broken().contains("SQL thread") && s.broken().contains("Duplicate entry"), s.broken());
    }

    @Test
    void connectingIoThreadIsBroken() {
        LagSample s = ReplicaStatusProbe.parse(List.of(row("Replica_IO_Running", "Connecting", "Replica_SQL_Running", "Yes",
                "Seconds_Behind_Source", "0")));
        assertTrue(s.isBroken());
        assertTrue(s.broken().contains("IO thread"), s.broken());
    }

    @Test
    void noStatusRowMeansNotReplicating() {
        assertTrue(ReplicaStatusProbe.parse(List.of()).isBroken());
    }

    @Test
    void theWorstChannelWins() {
        LagSample s = ReplicaStatusProbe.parse(List.of(
                row("Slave_IO_Running", "Yes", "Slave_SQL_Running", "Yes", "Seconds_Behind_Master", "1"),
                row("Slave_IO_Running", "Yes", "Slave_SQL_Running", "Yes", "Seconds_Behind_Master", "7")));
        assertEquals(7_000_000, s.lagMicros());
    }
}
