package io.rwsplit.position;

/** Combining what readers must see. */
public final class Tokens {

    private Tokens() {
    }

    /**
     * What a reader must see to see both writes: the later commit time, and the merged positions. When the
     * later write has no known position the result has none either (the time rule then covers both); an
     * earlier write without a position is covered by a later position of the same primary. With an
     * {@link ConsistencyToken#untrusted} one the result is untrusted.
     */
    public static ConsistencyToken merge(ConsistencyToken a, ConsistencyToken b) {
        if (a == null || a.equals(b)) {
            return b;
        }
        if (b == null) {
            return a;
        }
        long time = Math.max(a.commitTimeMicros(), b.commitTimeMicros());
        if (!a.trusted() || !b.trusted()) {
            return ConsistencyToken.untrusted(time);   // what the untrusted one stood for stays unknown
        }
        GtidPosition pa = a.positionOrNull();
        GtidPosition pb = b.positionOrNull();
        ConsistencyToken later = a.commitTimeMicros() >= b.commitTimeMicros() ? a : b;
        if (later.positionOrNull() == null) {
            return ConsistencyToken.withoutPosition(time);
        }
        if (pa == null || pb == null) {
            return ConsistencyToken.of(later.positionOrNull(), time);
        }
        try {
            return ConsistencyToken.of(pa.merge(pb), time);
        }
        catch (IllegalArgumentException flavoursDiffer) {
            // a MariaDB and a MySQL position: no single position covers both, the time rule must
            return ConsistencyToken.withoutPosition(time);
        }
    }
}
