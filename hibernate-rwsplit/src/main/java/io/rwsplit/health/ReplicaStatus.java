package io.rwsplit.health;

import io.rwsplit.position.GtidPosition;

/**
 * What the monitor last knew about one replica.
 *
 * @param name            the replica's configured name
 * @param state           UP, LAGGING or DOWN
 * @param lagMicros       the last measured lag in microseconds; 0 when unknown
 * @param lastError       why the replica is out of rotation (or the last failed probe while it is UP), or {@code null}
 *                        once it is UP and its last probe succeeded
 * @param position        the replica's GTID position at the last probe, or {@code null} when unknown
 * @param observedAtNanos {@link io.rwsplit.spi.Clock#nanoTime()} of the last observation, or 0 when never probed
 * @param acceptsWrites   whether the server takes writes although it replicates ({@code read_only=OFF} on MariaDB or
 *                        MySQL): hibernate-rwsplit sends it none, but nothing else stops a write that reaches it
 */
public record ReplicaStatus(String name, ReplicaState state, long lagMicros, String lastError, GtidPosition position,
                            long observedAtNanos, boolean acceptsWrites) {

    public boolean isUp() {
        return state == ReplicaState.UP;
    }
}
