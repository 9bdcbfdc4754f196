package io.rwsplit.position;

import java.util.Arrays;
import java.util.Objects;

/**
 * A MariaDB GTID position: at most one {@code domain-server-seq} GTID per replication domain.
 *
 * <p>Within a domain, GTIDs are ordered by sequence number alone; the server id records who wrote
 * the transaction and does not order it. Domain and server ids are unsigned 32-bit, sequence
 * numbers unsigned 64-bit, as in the server.
 */
public final class MariaDbGtidPosition implements GtidPosition {

    static final MariaDbGtidPosition EMPTY = new MariaDbGtidPosition(new int[0], new int[0], new long[0]);

    private static final long MAX_UINT32 = 0xFFFF_FFFFL;
    private static final long MAX_UINT64 = -1L;

    // Parallel arrays sorted by unsigned domain id, one entry per domain. Never exposed or mutated.
    private final int[] domains;
    private final int[] servers;
    private final long[] seqs;

    private MariaDbGtidPosition(int[] domains, int[] servers, long[] seqs) {
        this.domains = domains;
        this.servers = servers;
        this.seqs = seqs;
    }

    public static MariaDbGtidPosition parse(String text) {
        Objects.requireNonNull(text, "text");
        GtidText in = new GtidText(text, "MariaDB GTID position").skipWhitespace();
        if (in.atEnd()) {
            return EMPTY;
        }
        int[] domains = new int[2];
        int[] servers = new int[2];
        long[] seqs = new long[2];
        int count = 0;
        while (true) {
            int domain = (int) in.unsignedDecimal("domain id", MAX_UINT32);
            in.expect('-', "domain id");
            int server = (int) in.unsignedDecimal("server id", MAX_UINT32);
            in.expect('-', "server id");
            long seq = in.unsignedDecimal("sequence number", MAX_UINT64);
            if (count == domains.length) {
                domains = Arrays.copyOf(domains, count * 2);
                servers = Arrays.copyOf(servers, count * 2);
                seqs = Arrays.copyOf(seqs, count * 2);
            }
            domains[count] = domain;
            servers[count] = server;
            seqs[count] = seq;
            count++;
            in.skipWhitespace();
            if (in.atEnd()) {
                break;
            }
            if (!in.peekIs(',')) {
                throw in.error("expected ',' between GTIDs but found " + in.token(in.position()));
            }
            in.advance();
            in.skipWhitespace();
        }
        return sortedByDomain(in, domains, servers, seqs, count);
    }

    private static MariaDbGtidPosition sortedByDomain(GtidText in, int[] domains, int[] servers, long[] seqs, int count) {
        int[] d = Arrays.copyOf(domains, count);
        int[] s = Arrays.copyOf(servers, count);
        long[] n = Arrays.copyOf(seqs, count);
        if (!isStrictlyAscending(d)) {
            // Sort indexes by packing (unsigned domain << 31 | index) into one positive long.
            long[] keys = new long[count];
            for (int i = 0; i < count; i++) {
                keys[i] = (Integer.toUnsignedLong(d[i]) << 31) | i;
            }
            Arrays.sort(keys);
            for (int i = 0; i < count; i++) {
                int from = (int) (keys[i] & 0x7FFF_FFFF);
                d[i] = domains[from];
                s[i] = servers[from];
                n[i] = seqs[from];
            }
            for (int i = 1; i < count; i++) {
                if (d[i] == d[i - 1]) {
                    throw in.error("domain " + Integer.toUnsignedString(d[i]) + " appears more than once");
                }
            }
        }
        return new MariaDbGtidPosition(d, s, n);
    }

    private static boolean isStrictlyAscending(int[] d) {
        for (int i = 1; i < d.length; i++) {
            if (Integer.compareUnsigned(d[i - 1], d[i]) >= 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean contains(GtidPosition other) {
        if (other instanceof MariaDbGtidPosition m) {
            return containsAll(m);
        }
        if (other.isEmpty()) {
            return true;
        }
        if (isEmpty()) {
            return false;
        }
        throw GtidText.flavourMismatch("compare", this, other);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Per domain of {@code write}: {@code survived}'s sequence number is at least the write's, or this position's
     * GTID there has the write's server id (this server wrote it after its promotion, continuing the domain's
     * numbering) and a sequence number at least the write's.
     */
    @Override
    public boolean holdsAfterPromotion(GtidPosition survived, GtidPosition write) {
        if (survived.contains(write)) {
            return true;
        }
        if (!(write instanceof MariaDbGtidPosition w)) {
            return contains(write);   // an empty write, or another flavour: throws as contains does
        }
        MariaDbGtidPosition replicated = survived instanceof MariaDbGtidPosition m ? m : EMPTY;
        for (int j = 0; j < w.domains.length; j++) {
            int s = replicated.indexOf(w.domains[j]);
            if (s >= 0 && Long.compareUnsigned(replicated.seqs[s], w.seqs[j]) >= 0) {
                continue;
            }
            int own = indexOf(w.domains[j]);
            if (own < 0 || servers[own] != w.servers[j] || Long.compareUnsigned(seqs[own], w.seqs[j]) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The index of {@code domain} in this position, or -1. */
    private int indexOf(int domain) {
        for (int i = 0; i < domains.length; i++) {
            if (domains[i] == domain) {
                return i;
            }
        }
        return -1;
    }

    private boolean containsAll(MariaDbGtidPosition other) {
        int i = 0;
        for (int j = 0; j < other.domains.length; j++) {
            int domain = other.domains[j];
            while (i < domains.length && Integer.compareUnsigned(domains[i], domain) < 0) {
                i++;
            }
            if (i == domains.length || domains[i] != domain || Long.compareUnsigned(seqs[i], other.seqs[j]) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Per domain, the GTID with the higher sequence number wins; on equal sequence numbers this
     * position's GTID (and so its server id) is kept.
     */
    @Override
    public GtidPosition merge(GtidPosition other) {
        if (other instanceof MariaDbGtidPosition m) {
            return containsAll(m) ? this : m.containsAll(this) ? m : union(m, false);
        }
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        throw GtidText.flavourMismatch("merge", this, other);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Per domain, the GTID with the higher sequence number wins where both have the same server id; where
     * {@code later}'s has another, this position's is kept.
     */
    @Override
    public GtidPosition mergeSameWriter(GtidPosition later) {
        if (later instanceof MariaDbGtidPosition m) {
            return containsAll(m) ? this : union(m, true);
        }
        return merge(later);
    }

    /**
     * Per domain, the GTID with the higher sequence number; {@code sameWriter}: only where both GTIDs have the same
     * server id, else this position's.
     */
    private MariaDbGtidPosition union(MariaDbGtidPosition other, boolean sameWriter) {
        int max = domains.length + other.domains.length;
        int[] d = new int[max];
        int[] s = new int[max];
        long[] n = new long[max];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < domains.length || j < other.domains.length) {
            int cmp = i == domains.length ? 1
                    : j == other.domains.length ? -1
                    : Integer.compareUnsigned(domains[i], other.domains[j]);
            boolean takeOther = cmp > 0 || (cmp == 0 && Long.compareUnsigned(other.seqs[j], seqs[i]) > 0
                    && (!sameWriter || servers[i] == other.servers[j]));
            if (takeOther) {
                d[k] = other.domains[j];
                s[k] = other.servers[j];
                n[k] = other.seqs[j];
            } else {
                d[k] = domains[i];
                s[k] = servers[i];
                n[k] = seqs[i];
            }
            k++;
            if (cmp <= 0) {
                i++;
            }
            if (cmp >= 0) {
                j++;
            }
        }
        return new MariaDbGtidPosition(Arrays.copyOf(d, k), Arrays.copyOf(s, k), Arrays.copyOf(n, k));
    }

    @Override
    public boolean isEmpty() {
        return domains.length == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MariaDbGtidPosition other
                && Arrays.equals(domains, other.domains)
                && Arrays.equals(servers, other.servers)
                && Arrays.equals(seqs, other.seqs);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(domains) + Arrays.hashCode(servers)) + Arrays.hashCode(seqs);
    }

    /** Comma-separated {@code domain-server-seq} GTIDs in ascending domain order; empty text when empty. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(domains.length * 16);
        for (int i = 0; i < domains.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(Integer.toUnsignedString(domains[i])).append('-')
              .append(Integer.toUnsignedString(servers[i])).append('-')
              .append(Long.toUnsignedString(seqs[i]));
        }
        return sb.toString();
    }
}
