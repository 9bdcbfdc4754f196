package io.rwsplit.spi;

/**
 * One measurement of a {@link LagProbe}.
 *
 * @param lagMicros the lag in microseconds (0 when {@code broken} is set)
 * @param broken    why replication is broken (stopped SQL or IO thread, unknown lag), or {@code null}
 */
public record LagSample(long lagMicros, String broken) {

    public LagSample {
        if (lagMicros < 0) {
            lagMicros = 0;
        }
    }

    public static LagSample of(long lagMicros) {
        return new LagSample(lagMicros, null);
    }

    public static LagSample broken(String reason) {
        return new LagSample(0, reason);
    }

    public boolean isBroken() {
        return broken != null;
    }
}
