package io.rwsplit.health;

import java.util.function.Predicate;

/**
 * Recent marks the monitor left on the primary (heartbeat timestamps or GTID positions), each with the
 * time it was written. A replica's lag is estimated from the marks it has applied:
 * <ul>
 *   <li>all of them: 0;</li>
 *   <li>all but the newest: the time since the newest was written (it is probably in flight);</li>
 *   <li>it misses two or more: the time since its newest applied mark was written (as pt-heartbeat
 *       measures; it over-estimates by less than one probe interval, which offsets the probe sampling
 *       the lag up to one interval before its peak), or since the oldest remembered mark when it applied
 *       none of them.</li>
 * </ul>
 * Both times come from this process's clock, so the result needs no clock synchronisation between
 * hosts. Thread-safe (the monitor's threads only; routing never touches it).
 */
final class Timeline<T> {

    private final Object[] values;
    private final long[] micros;
    private int next;
    private int size;

    Timeline(int capacity) {
        this.values = new Object[capacity];
        this.micros = new long[capacity];
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
        int oldestMissing = newest();
        for (int i = 1; i < size; i++) {
            int index = Math.floorMod(newest() - i, values.length);
            if (applied.test((T) values[index])) {
                long since = oldestMissing == newest() ? micros[oldestMissing] : micros[index];
                return Math.max(0, nowMicros - since);
            }
            oldestMissing = index;
        }
        return Math.max(0, nowMicros - micros[oldestMissing]);
    }

    private int newest() {
        return Math.floorMod(next - 1, values.length);
    }
}
