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
 */
public final class LsnPosition implements GtidPosition {

    public static final LsnPosition EMPTY = new LsnPosition(0);

    private static final int MAX_HALF_DIGITS = 8;
    /** {@code SizeOfXLogShortPHD} on 64-bit builds. */
    private static final long SHORT_PAGE_HEADER = 24;

    private final long lsn;

    private LsnPosition(long lsn) {
        this.lsn = lsn;
    }

    /** The position at byte offset {@code lsn} (unsigned). */
    public static LsnPosition of(long lsn) {
        return lsn == 0 ? EMPTY : new LsnPosition(lsn);
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
                ? of(lsn - SHORT_PAGE_HEADER) : this;
    }

    /** The position one byte further: what a server has only after writing past this one. */
    public LsnPosition next() {
        return of(lsn + 1);
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
