package io.rwsplit.position;

import java.util.Arrays;

/**
 * Sets of positive {@code long}s as interval arrays {@code [start0, end0, start1, end1, ...]}
 * (inclusive ends). A <em>normalized</em> array is sorted, and its intervals neither overlap nor
 * touch, so each number belongs to exactly one interval and equal sets have equal arrays.
 */
final class Intervals {

    private Intervals() {
    }

    /** Normalizes the first {@code length} slots of {@code pairs}, whose starts are all at least 1. */
    static long[] normalize(long[] pairs, int length) {
        long[] sorted = isSortedByStart(pairs, length) ? pairs : sortByStart(pairs, length);
        long[] out = new long[length];
        int k = 0;
        for (int i = 0; i < length; i += 2) {
            long start = sorted[i];
            long end = sorted[i + 1];
            if (k > 0 && start - 1 <= out[k - 1]) { // overlaps or touches the previous interval
                out[k - 1] = Math.max(out[k - 1], end);
            } else {
                out[k++] = start;
                out[k++] = end;
            }
        }
        return k == out.length ? out : Arrays.copyOf(out, k);
    }

    /** @return true when every number in normalized {@code b} is in normalized {@code a} */
    static boolean containsAll(long[] a, long[] b) {
        int i = 0;
        for (int j = 0; j < b.length; j += 2) {
            while (i < a.length && a[i + 1] < b[j]) {
                i += 2;
            }
            // a is normalized, so a single interval of a must cover the whole of b's interval.
            if (i == a.length || a[i] > b[j] || a[i + 1] < b[j + 1]) {
                return false;
            }
        }
        return true;
    }

    /** @return the normalized union of normalized {@code a} and {@code b} */
    static long[] union(long[] a, long[] b) {
        long[] merged = new long[a.length + b.length];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < a.length || j < b.length) {
            if (j == b.length || (i < a.length && a[i] <= b[j])) {
                merged[k++] = a[i++];
                merged[k++] = a[i++];
            } else {
                merged[k++] = b[j++];
                merged[k++] = b[j++];
            }
        }
        return normalize(merged, k);
    }

    private static boolean isSortedByStart(long[] pairs, int length) {
        for (int i = 2; i < length; i += 2) {
            if (pairs[i] < pairs[i - 2]) {
                return false;
            }
        }
        return true;
    }

    private static long[] sortByStart(long[] pairs, int length) {
        Integer[] order = new Integer[length / 2];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Long.compare(pairs[2 * x], pairs[2 * y]));
        long[] sorted = new long[length];
        for (int i = 0; i < order.length; i++) {
            sorted[2 * i] = pairs[2 * order[i]];
            sorted[2 * i + 1] = pairs[2 * order[i] + 1];
        }
        return sorted;
    }
}
