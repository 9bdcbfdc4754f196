package io.rwsplit.position;

import java.util.Objects;

/**
 * A PostgreSQL write-ahead log position (an LSN, {@code pg_lsn}): an unsigned 64-bit byte offset into the
 * WAL, printed by the server as two hexadecimal 32-bit halves {@code X/Y} ({@code 16/B374D848}). Positions
 * are compared numerically, never as text: {@code 0/A000000} is after {@code 0/9FFFFFF}.
 *
 * <p>A standby that replayed up to LSN {@code r} ({@code pg_last_wal_replay_lsn()}) has applied every
 * transaction whose commit record ends at or before {@code r}. {@code 0/0} (the server's invalid LSN) is
 * the empty position.
 *
 * <p>A position may know its <em>timeline</em>: the server's timeline when it wrote there (the first field of its WAL
 * file's name; a promotion starts a new one). It says which server wrote, for a write a failover may have lost
 * ({@link #holdsAfterPromotion}); it does not order positions, is not part of their text, and two positions at the
 * same byte offset are equal whatever their timelines.
 */
public final class LsnPosition implements GtidPosition {

    public static final LsnPosition EMPTY = new LsnPosition(0, 0);

    private static final int MAX_HALF_DIGITS = 8;
    /** {@code SizeOfXLogShortPHD} on 64-bit builds. */
    private static final long SHORT_PAGE_HEADER = 24;

    private final long lsn;
    /** The timeline written on, unsigned 32-bit; 0 when unknown. */
    private final int timeline;

    private LsnPosition(long lsn, int timeline) {
        this.lsn = lsn;
        this.timeline = timeline;
    }

    /** The position at byte offset {@code lsn} (unsigned), its timeline unknown. */
    public static LsnPosition of(long lsn) {
        return of(lsn, 0);
    }

    private static LsnPosition of(long lsn, int timeline) {
        return lsn == 0 ? EMPTY : new LsnPosition(lsn, timeline);
    }

    /**
     * This position, written on timeline {@code timeline} (1 to 2^32 - 1, as PostgreSQL numbers them).
     *
     * @throws IllegalArgumentException naming the value when it is no timeline
     */
    public LsnPosition onTimeline(long timeline) {
        if (timeline < 1 || timeline > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("a PostgreSQL timeline is between 1 and 4294967295, not " + timeline);
        }
        return isEmpty() ? this : new LsnPosition(lsn, (int) timeline);
    }

    /** The timeline this position was written on, or 0 when it is not known. */
    public long timeline() {
        return Integer.toUnsignedLong(timeline);
    }

    /**
     * Parses {@code X/Y} as PostgreSQL prints a {@code pg_lsn}: one to eight hexadecimal digits on each side
     * (either case), whitespace around the text ignored.
     *
     * @throws IllegalArgumentException naming the text when it is malformed
     */
    public static LsnPosition parse(String text) {
        Objects.requireNonNull(text, "text");
        GtidText in = new GtidText(text, "PostgreSQL LSN").skipWhitespace();
        long high = half(in, "high half");
        if (!in.peekIs('/')) {
            throw in.error("expected '/' after the high half" + (in.atEnd() ? " but the text ended" : " but found "
                    + in.token(in.position())));
        }
        in.advance();
        long low = half(in, "low half");
        in.skipWhitespace();
        if (!in.atEnd()) {
            throw in.error("unexpected " + in.token(in.position()) + " after the LSN");
        }
        return of(high << 32 | low);
    }

    private static long half(GtidText in, String name) {
        int start = in.position();
        long value = 0;
        while (!in.atEnd() && Character.digit(in.peek(), 16) >= 0) {
            if (in.position() - start == MAX_HALF_DIGITS) {
                throw in.error(name + " " + in.token(start) + " has more than " + MAX_HALF_DIGITS + " hex digits");
            }
            value = value << 4 | Character.digit(in.peek(), 16);
            in.advance();
        }
        if (in.position() == start) {
            throw in.error(name + " " + (in.atEnd() ? "is missing at the end" : in.token(start) + " is not hexadecimal"));
        }
        return value;
    }

    /**
     * This WAL insert position ({@code pg_current_wal_insert_lsn()}) as a position a standby can reach. When the
     * WAL ends exactly at the end of a page, the server reports the insert position past the next page's short
     * header (24 bytes on 64-bit builds), where the next record would start. No record ends there, so a standby,
     * whose replay position is the end of the last record it replayed, stays at the page boundary until another
     * record is written. The boundary is then the position to require: no record ends between the boundary and
     * 24 bytes after it (a record continued onto a page ends after that page's header, of at least 20 bytes, and
     * at a multiple of at least 4), so a standby at the boundary has every record this position covers. Positions
     * just past the long header that begins a WAL segment are left as they are (a wait for them lasts until the
     * next write, at most its budget).
     *
     * @param walBlockSize the server's {@code wal_block_size}
     */
    public LsnPosition asReplayPosition(int walBlockSize) {
        return walBlockSize > 0 && Long.remainderUnsigned(lsn, walBlockSize) == SHORT_PAGE_HEADER
                ? of(lsn - SHORT_PAGE_HEADER, timeline) : this;
    }

    /** The position one byte further: what a server has only after writing past this one. */
    public LsnPosition next() {
        return of(lsn + 1, timeline);
    }

    /** The byte offset, unsigned. */
    public long lsn() {
        return lsn;
    }

    /** Bytes from {@code earlier} to this position, 0 when {@code earlier} is not before it. */
    public long bytesAfter(LsnPosition earlier) {
        return Long.compareUnsigned(lsn, earlier.lsn) > 0 ? lsn - earlier.lsn : 0;
    }

    @Override
    public boolean contains(GtidPosition other) {
        if (other instanceof LsnPosition l) {
            return Long.compareUnsigned(lsn, l.lsn) >= 0;
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
     * <p>Past {@code survived}, the switch point of this server's timeline, a write is this server's own when it was
     * written on this position's timeline: the old primary's writes that no standby had carry the old timeline. The
     * LSNs are not compared (a commit's position, its WAL insert position or, after a synchronous commit, its flush
     * position, is read after the commit and may be ahead of this one). (Two servers promoted from one timeline without a shared
     * archive may both take the next number: then the writes of the first that the second lacks pass for held.)
     */
    @Override
    public boolean holdsAfterPromotion(GtidPosition survived, GtidPosition write) {
        if (survived.contains(write)) {
            return true;
        }
        if (!(write instanceof LsnPosition w)) {
            return contains(write);   // an empty write, or another flavour: throws as contains does
        }
        return timeline != 0 && w.timeline == timeline;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Positions on different timelines (both known) are not merged: this one stays.
     */
    @Override
    public GtidPosition mergeSameWriter(GtidPosition later) {
        if (later instanceof LsnPosition l && timeline != 0 && l.timeline != 0 && timeline != l.timeline) {
            return this;
        }
        return merge(later);
    }

    @Override
    public GtidPosition merge(GtidPosition other) {
        if (other instanceof LsnPosition l) {
            return Long.compareUnsigned(lsn, l.lsn) >= 0 ? this : l;
        }
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        throw GtidText.flavourMismatch("merge", this, other);
    }

    @Override
    public boolean isEmpty() {
        return lsn == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LsnPosition other && lsn == other.lsn;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(lsn);
    }

    /** {@code X/Y} in upper-case hexadecimal, as the server prints it and accepts it as a {@code pg_lsn}. */
    @Override
    public String toString() {
        return Long.toHexString(lsn >>> 32).toUpperCase(java.util.Locale.ROOT) + "/"
                + Long.toHexString(lsn & 0xFFFF_FFFFL).toUpperCase(java.util.Locale.ROOT);
    }
}
