package io.rwsplit.bench.workload;

import java.util.Arrays;

/** Latencies of one kind of operation, in nanoseconds; one per user thread, merged at the end. */
final class LatencyLog {

    private long[] values = new long[4096];
    private int size;

    void add(long nanos) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = nanos;
    }

    int size() {
        return size;
    }

    static LatencyLog merge(Iterable<LatencyLog> logs) {
        LatencyLog all = new LatencyLog();
        for (LatencyLog log : logs) {
            for (int i = 0; i < log.size; i++) {
                all.add(log.values[i]);
            }
        }
        Arrays.sort(all.values, 0, all.size);
        return all;
    }

    /** The {@code q} quantile (0..1) of a merged (sorted) log, in microseconds; 0 when empty. */
    long quantileMicros(double q) {
        if (size == 0) {
            return 0;
        }
        int index = (int) Math.min(size - 1, Math.ceil(q * size) - 1);
        return values[Math.max(0, index)] / 1000;
    }
}
