package io.rwsplit.health;

import java.util.function.Predicate;

/**
 * Recent marks the monitor left on the primary (heartbeat timestamps or GTID positions), each with the
 * time it was written, oldest first. A replica's lag is the time since the oldest mark it has not yet
 * applied: zero when it has applied the newest one. Both times come from this process's clock, so
 * the result needs no clock synchronisation between hosts. It under-estimates the true lag by at most
 * one probe interval (the replica may already miss a write made after the previous mark).
 * Thread-safe (the monitor's threads only; routing never touches it).
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
     * @param applied whether the replica has applied a mark
     * @return microseconds since the oldest mark the replica has not applied, or 0 when it applied them all
     *         (or nothing was written yet); when it applied none of the remembered marks, the time since the oldest
     */
    @SuppressWarnings("unchecked")
    synchronized long lagMicros(Predicate<T> applied, long nowMicros) {
        if (size == 0 || applied.test((T) values[newest()])) {
            return 0;
        }
        // marks are monotonic: walk back from the newest to the oldest unapplied one
        int oldestUnapplied = newest();
        for (int i = 1; i < size; i++) {
            int index = Math.floorMod(newest() - i, values.length);
            if (applied.test((T) values[index])) {
                break;
            }
            oldestUnapplied = index;
        }
        return Math.max(0, nowMicros - micros[oldestUnapplied]);
    }

    private int newest() {
        return Math.floorMod(next - 1, values.length);
    }
}
