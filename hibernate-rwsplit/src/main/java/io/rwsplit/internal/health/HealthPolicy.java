package io.rwsplit.internal.health;

/**
 * The thresholds of the replica state machine.
 *
 * @param failureThreshold consecutive probe failures that take a replica DOWN, at least 1
 * @param maxLagMicros     lag above which a replica is LAGGING; 0 means no lag limit
 * @param recoveryNanos    how long a replica must stay healthy before it is UP again; 0 means at once
 */
public record HealthPolicy(int failureThreshold, long maxLagMicros, long recoveryNanos) {

    /** The policy the validated health settings {@code config} describe. */
    public static HealthPolicy of(io.rwsplit.internal.config.HealthConfig config) {
        return new HealthPolicy(config.failureThreshold(), config.maxLag().toNanos() / 1000, config.recoveryPeriod().toNanos());
    }

    public HealthPolicy {
        if (failureThreshold < 1 || maxLagMicros < 0 || recoveryNanos < 0) {
            throw new IllegalArgumentException("invalid health policy " + failureThreshold + ", " + maxLagMicros
                    + ", " + recoveryNanos);
        }
    }

    boolean withinLag(long lagMicros) {
        return maxLagMicros == 0 || lagMicros <= maxLagMicros;
    }
}
