package io.rwsplit.internal.health;

import io.rwsplit.position.GtidPosition;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.health.ReplicaStatus;

/**
 * The state machine of one replica, driven by observations and the clock's time; it never reads a
 * clock or sleeps itself, so tests feed it any timeline. Not thread-safe: the owner (the replica set)
 * serialises calls.
 * <ul>
 *   <li>UP to LAGGING: a probe measures a lag above {@code max_lag}, or reports broken replication;</li>
 *   <li>UP or LAGGING to DOWN: {@code failure_threshold} consecutive probe failures, or at once a
 *       connection error during a read;</li>
 *   <li>any state to PRIMARY: a probe finds that the server is the primary now (a failover promoted it);
 *       from PRIMARY, a probe that finds a replica again leads to LAGGING, then UP after the recovery period;</li>
 *   <li>LAGGING or DOWN to UP: only after probes have been healthy (reachable, lag within
 *       {@code max_lag}) without interruption for {@code recovery_period} (hysteresis: no flapping).</li>
 * </ul>
 * The lag it judges and reports is the largest measured in the last {@value #LAG_WINDOW_MILLIS} ms:
 * replication often applies in bursts (MariaDB's {@code MASTER_DELAY} and {@code Seconds_Behind_Master}
 * work in whole seconds, group commit applies many transactions at once), so staleness is a sawtooth,
 * and a reader can hit its peak.
 */
public final class HealthTracker {

    /** How far back the reported lag looks for its peak. */
    public static final long LAG_WINDOW_MILLIS = 1500;
    private static final long LAG_WINDOW_NANOS = LAG_WINDOW_MILLIS * 1_000_000L;

    private final String name;
    private final HealthPolicy policy;
    private final long[] sampleNanos = new long[32];
    private final long[] sampleLag = new long[32];
    private int nextSample;
    private int samples;

    private ReplicaState state = ReplicaState.UP;
    private int failures;
    private boolean healthyStreak;
    private long healthySince;
    private long lagMicros;
    private String lastError;
    private GtidPosition position;
    private long observedAt;
    private boolean acceptsWrites;
    private long ejections;

    public HealthTracker(String name, HealthPolicy policy) {
        this.name = name;
        this.policy = policy;
    }

    /** A probe reached the replica and measured its lag. Returns whether the state changed. */
    public boolean probeSucceeded(long nowNanos, long measuredLagMicros, GtidPosition position) {
        ReplicaState before = state;
        long lagMicros = peakLag(nowNanos, measuredLagMicros);
        this.lagMicros = lagMicros;
        if (position != null) {
            this.position = position;
        }
        observedAt = nowNanos;
        failures = 0;
        if (policy.withinLag(lagMicros)) {
            if (state != ReplicaState.UP) {
                if (!healthyStreak) {
                    healthyStreak = true;
                    healthySince = nowNanos;
                }
                if (nowNanos - healthySince >= policy.recoveryNanos()) {
                    state = ReplicaState.UP;
                    healthyStreak = false;
                    lastError = null;
                }
                else if (state == ReplicaState.DOWN || state == ReplicaState.PRIMARY) {
                    state = ReplicaState.LAGGING;
                }
            }
            else {
                lastError = null;
            }
        }
        else {
            healthyStreak = false;
            lastError = "lag " + lagMicros / 1000 + " ms exceeds max_lag " + policy.maxLagMicros() / 1000 + " ms";
            leave(ReplicaState.LAGGING);
        }
        return state != before;
    }

    /** A probe reached the replica but its replication is broken (stopped thread, unknown lag). */
    public boolean probeBroken(long nowNanos, String reason, GtidPosition position) {
        ReplicaState before = state;
        if (position != null) {
            this.position = position;
        }
        observedAt = nowNanos;
        failures = 0;
        healthyStreak = false;
        lastError = reason;
        leave(ReplicaState.LAGGING);
        return state != before;
    }

    /** A probe found that the server is the primary now (a failover promoted it): out of rotation. */
    public boolean probeFoundPrimary(long nowNanos, String reason) {
        ReplicaState before = state;
        observedAt = nowNanos;
        failures = 0;
        healthyStreak = false;
        lagMicros = 0;
        lastError = reason;
        leave(ReplicaState.PRIMARY);
        return state != before;
    }

    /** A probe could not reach the replica (or timed out). */
    public boolean probeFailed(long nowNanos, String error) {
        ReplicaState before = state;
        observedAt = nowNanos;
        healthyStreak = false;
        lastError = error;
        if (failures < Integer.MAX_VALUE) {
            failures++;
        }
        if (failures >= policy.failureThreshold()) {
            leave(ReplicaState.DOWN);
        }
        return state != before;
    }

    /** A read on the replica failed with a connection error: out at once, without waiting for a probe. */
    public boolean readFailed(long nowNanos, String error) {
        ReplicaState before = state;
        healthyStreak = false;
        lastError = error;
        failures = Math.max(failures, policy.failureThreshold());
        leave(ReplicaState.DOWN);
        return state != before;
    }

    /** Records a measurement; returns the largest of the window. */
    private long peakLag(long nowNanos, long measured) {
        sampleNanos[nextSample] = nowNanos;
        sampleLag[nextSample] = measured;
        nextSample = (nextSample + 1) % sampleLag.length;
        samples = Math.min(samples + 1, sampleLag.length);
        long peak = measured;
        for (int i = 0; i < samples; i++) {
            if (nowNanos - sampleNanos[i] <= LAG_WINDOW_NANOS) {
                peak = Math.max(peak, sampleLag[i]);
            }
        }
        return peak;
    }

    /** The lag as judged: the peak of the window. */
    public long lagMicros() {
        return lagMicros;
    }

    private void leave(ReplicaState to) {
        if (state == ReplicaState.UP) {
            ejections++;
        }
        state = to;
    }

    public ReplicaState state() {
        return state;
    }

    public long ejections() {
        return ejections;
    }

    public String lastError() {
        return lastError;
    }

    /** Whether the replica takes writes although it replicates (its probe saw {@code read_only=OFF}). */
    public void acceptsWrites(boolean acceptsWrites) {
        this.acceptsWrites = acceptsWrites;
    }

    public boolean acceptsWrites() {
        return acceptsWrites;
    }

    public ReplicaStatus status() {
        return new ReplicaStatus(name, state, lagMicros, lastError, position, observedAt, acceptsWrites);
    }
}
