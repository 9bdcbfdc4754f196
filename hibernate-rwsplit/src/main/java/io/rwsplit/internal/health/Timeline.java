package io.rwsplit.internal.health;

import java.util.function.Predicate;

/**
 * Recent marks the monitor left on the primary (heartbeat timestamps or GTID positions), each with the
 * time it was written, about one probe interval apart. A replica's lag is estimated from the marks it has applied:
 * <ul>
 *   <li>all of them: 0;</li>
 *   <li>all but the newest, when that one is in flight (written less than {@code inFlightMicros} ago, or no
 *       more than that after the one before): the time since the newest was written;</li>
 *   <li>otherwise: the time since its newest applied mark was written (as pt-heartbeat measures; it
 *       over-estimates by less than one probe interval, which offsets the probe sampling the lag up to one
 *       interval before its peak), or since the oldest remembered mark when it applied none of them. A gap in
 *       the marks (the monitor could not write for a while: primary busy, pool exhausted) says nothing of what
 *       the replica applied in it, so a replica that still misses the mark after a gap once that mark is no
 *       longer in flight is taken to miss everything since the mark before it: the estimate errs high, never
 *       low by the length of the gap.</li>
 * </ul>
 * Both times come from this process's clock, so the result needs no clock synchronisation between
 * hosts. Thread-safe (the monitor's threads only; routing never touches it).
 */
final class Timeline<T> {

    private final Object[] values;
    private final long[] micros;
    private final long inFlightMicros;
    private int next;
    private int size;

    /**
     * @param inFlightMicros how long a mark counts as in flight after it was written, and the longest spacing after
     *                       which the next mark counts as in flight however old (a little more than the interval
     *                       marks are written at)
     */
    Timeline(int capacity, long inFlightMicros) {
        this.values = new Object[capacity];
        this.micros = new long[capacity];
        this.inFlightMicros = inFlightMicros;
    }

    /** A timeline of 256 marks written every {@code interval}: the newest counts as in flight for two intervals. */
    static <T> Timeline<T> every(java.time.Duration interval) {
        return new Timeline<>(256, 2 * interval.toNanos() / 1000);
    }

    /** Records that {@code value} was written on the primary at {@code writtenMicros}. */
    synchronized void add(T value, long writtenMicros) {
        values[next] = value;
        micros[next] = writtenMicros;
        next = (next + 1) % values.length;
        size = Math.min(size + 1, values.length);
    }

    /**
     * @param applied whether the replica has applied a mark (marks are monotonic)
     * @return the estimated lag in microseconds, 0 when the replica applied every mark or none was written yet
     */
    @SuppressWarnings("unchecked")
    synchronized long lagMicros(Predicate<T> applied, long nowMicros) {
        if (size == 0 || applied.test((T) values[newest()])) {
            return 0;
        }
        int newest = newest();
        int oldestMissing = newest;
        for (int i = 1; i < size; i++) {
            int index = Math.floorMod(newest - i, values.length);
            if (applied.test((T) values[index])) {
                boolean inFlight = oldestMissing == newest && (nowMicros - micros[newest] <= inFlightMicros
                        || micros[newest] - micros[index] <= inFlightMicros);
                return Math.max(0, nowMicros - (inFlight ? micros[newest] : micros[index]));
            }
            oldestMissing = index;
        }
        return Math.max(0, nowMicros - micros[oldestMissing]);
    }

    private int newest() {
        return Math.floorMod(next - 1, values.length);
    }
}
