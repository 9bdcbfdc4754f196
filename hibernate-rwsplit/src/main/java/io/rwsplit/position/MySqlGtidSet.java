package io.rwsplit.position;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A MySQL GTID set: for each source UUID (and, since MySQL 8.3, each tag) the transaction
 * numbers applied, as intervals. Containment is set inclusion, so {@code uuid:1-5:7-9} does not
 * contain {@code uuid:6}.
 */
public final class MySqlGtidSet implements GtidPosition {

    static final MySqlGtidSet EMPTY = new MySqlGtidSet(new Member[0]);

    private static final int MAX_TAG_LENGTH = 32;

    /** Sorted by source (UUID, then tag with untagged first), one member per source. */
    private final Member[] members;

    private MySqlGtidSet(Member[] members) {
        this.members = members;
    }

    public static MySqlGtidSet parse(String text) {
        Objects.requireNonNull(text, "text");
        GtidText in = new GtidText(text, "MySQL GTID set").skipWhitespace();
        if (in.atEnd()) {
            return EMPTY;
        }
        List<Builder> builders = new ArrayList<>();
        while (true) {
            int uuidStart = in.position();
            long high = hex(in, uuidStart, 8) << 32;
            high |= hex(in, uuidStart, 4) << 16;
            high |= hex(in, uuidStart, 4);
            long low = hex(in, uuidStart, 4) << 48;
            low |= hex(in, uuidStart, 12);
            in.expect(':', "source UUID");
            Builder current = new Builder(high, low, "");
            builders.add(current);
            while (true) {
                if (!in.atEnd() && isTagStart(in.peek())) {
                    current = new Builder(high, low, tag(in));
                    builders.add(current);
                    in.expect(':', "tag");
                }
                parseInterval(in, current);
                if (!in.skipWhitespace().peekIs(':')) {
                    break;
                }
                in.advance();
                in.skipWhitespace();
            }
            if (in.atEnd()) {
                break;
            }
            if (!in.peekIs(',')) {
                throw in.error("expected ',' or ':' but found " + in.token(in.position()));
            }
            in.advance();
            in.skipWhitespace();
        }
        return new MySqlGtidSet(combine(builders));
    }

    /** Reads one interval ({@code n} or {@code n-m}) into {@code into}. */
    private static void parseInterval(GtidText in, Builder into) {
        int start = in.position();
        long first = in.unsignedDecimal("transaction number", Long.MAX_VALUE);
        long last = first;
        if (in.skipWhitespace().peekIs('-')) {
            in.advance();
            in.skipWhitespace();
            last = in.unsignedDecimal("transaction number", Long.MAX_VALUE);
        }
        if (first == 0) {
            throw in.error("interval " + in.element(start) + " starts at 0; transaction numbers start at 1");
        }
        if (last < first) {
            throw in.error("interval " + in.element(start) + " ends before it starts");
        }
        into.add(first, last);
    }

    /** Reads one group of a UUID, and the {@code '-'} after it unless it is the last (12-digit) group. */
    private static long hex(GtidText in, int uuidStart, int digits) {
        long value = 0;
        for (int i = 0; i < digits; i++) {
            int digit = in.atEnd() ? -1 : hexValue(in.peek());
            if (digit < 0) {
                throw notUuid(in, uuidStart);
            }
            value = (value << 4) | digit;
            in.advance();
        }
        if (digits != 12) {
            if (!in.peekIs('-')) {
                throw notUuid(in, uuidStart);
            }
            in.advance();
        }
        return value;
    }

    private static IllegalArgumentException notUuid(GtidText in, int uuidStart) {
        return in.error("source UUID " + in.element(uuidStart)
                + " is not a UUID (expected xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)");
    }

    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static boolean isTagStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static String tag(GtidText in) {
        int start = in.position();
        StringBuilder tag = new StringBuilder();
        while (!in.atEnd() && (isTagStart(in.peek()) || GtidText.isDigit(in.peek()))) {
            tag.append(Character.toLowerCase(in.peek()));
            in.advance();
        }
        if (tag.length() > MAX_TAG_LENGTH) {
            throw in.error("tag " + in.token(start) + " is longer than " + MAX_TAG_LENGTH + " characters");
        }
        return tag.toString();
    }

    /** Sorts by source and merges repeated sources, as the server does for {@code uuid:1,uuid:3}. */
    private static Member[] combine(List<Builder> builders) {
        builders.sort((x, y) -> compareSources(x.member(), y.member()));
        List<Member> out = new ArrayList<>(builders.size());
        for (Builder b : builders) {
            if (b.isEmpty()) {
                continue; // an untagged run that went straight to a tag: uuid:tag:1-3
            }
            Member m = b.member();
            int last = out.size() - 1;
            if (last >= 0 && out.get(last).sameSource(m)) {
                out.set(last, out.get(last).with(Intervals.union(out.get(last).intervals, m.intervals)));
            } else {
                out.add(m);
            }
        }
        return out.toArray(new Member[0]);
    }

    /** Orders by UUID (as unsigned 128-bit), then tag, untagged first. */
    private static int compareSources(Member a, Member b) {
        int cmp = Long.compareUnsigned(a.uuidHigh, b.uuidHigh);
        if (cmp == 0) {
            cmp = Long.compareUnsigned(a.uuidLow, b.uuidLow);
        }
        return cmp != 0 ? cmp : a.tag.compareTo(b.tag);
    }

    @Override
    public boolean contains(GtidPosition other) {
        if (other instanceof MySqlGtidSet s) {
            return containsAll(s);
        }
        if (other.isEmpty()) {
            return true;
        }
        if (isEmpty()) {
            return false;
        }
        throw GtidText.flavourMismatch("compare", this, other);
    }

    private boolean containsAll(MySqlGtidSet other) {
        int i = 0;
        for (Member wanted : other.members) {
            while (i < members.length && compareSources(members[i], wanted) < 0) {
                i++;
            }
            if (i == members.length || !members[i].sameSource(wanted)
                    || !Intervals.containsAll(members[i].intervals, wanted.intervals)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public GtidPosition merge(GtidPosition other) {
        if (other instanceof MySqlGtidSet s) {
            return containsAll(s) ? this : s.containsAll(this) ? s : union(s);
        }
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        throw GtidText.flavourMismatch("merge", this, other);
    }

    private MySqlGtidSet union(MySqlGtidSet other) {
        Member[] out = new Member[members.length + other.members.length];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < members.length || j < other.members.length) {
            int cmp = i == members.length ? 1
                    : j == other.members.length ? -1
                    : compareSources(members[i], other.members[j]);
            if (cmp < 0) {
                out[k++] = members[i++];
            } else if (cmp > 0) {
                out[k++] = other.members[j++];
            } else {
                out[k++] = members[i].with(Intervals.union(members[i].intervals, other.members[j].intervals));
                i++;
                j++;
            }
        }
        return new MySqlGtidSet(Arrays.copyOf(out, k));
    }

    @Override
    public boolean isEmpty() {
        return members.length == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MySqlGtidSet other && Arrays.equals(members, other.members);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(members);
    }

    /**
     * Lower-case UUIDs in order, each once, untagged intervals first then each tag with its
     * intervals ({@code uuid:1-5:7-9:tag:1-3}), members separated by {@code ,}; empty text when empty.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(members.length * 48);
        for (int i = 0; i < members.length; i++) {
            Member m = members[i];
            if (i == 0 || m.uuidHigh != members[i - 1].uuidHigh || m.uuidLow != members[i - 1].uuidLow) {
                if (i > 0) {
                    sb.append(',');
                }
                appendUuid(sb, m.uuidHigh, m.uuidLow);
            }
            if (!m.tag.isEmpty()) {
                sb.append(':').append(m.tag);
            }
            for (int k = 0; k < m.intervals.length; k += 2) {
                sb.append(':').append(m.intervals[k]);
                if (m.intervals[k + 1] != m.intervals[k]) {
                    sb.append('-').append(m.intervals[k + 1]);
                }
            }
        }
        return sb.toString();
    }

    private static void appendUuid(StringBuilder sb, long high, long low) {
        appendHex(sb, high >>> 32, 8).append('-');
        appendHex(sb, high >>> 16, 4).append('-');
        appendHex(sb, high, 4).append('-');
        appendHex(sb, low >>> 48, 4).append('-');
        appendHex(sb, low, 12);
    }

    private static StringBuilder appendHex(StringBuilder sb, long value, int digits) {
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            sb.append(Character.forDigit((int) (value >>> shift) & 0xF, 16));
        }
        return sb;
    }

    /** One source (UUID and tag, {@code ""} when untagged) and its normalized intervals. */
    private static final class Member {
        final long uuidHigh;
        final long uuidLow;
        final String tag;
        final long[] intervals;

        Member(long uuidHigh, long uuidLow, String tag, long[] intervals) {
            this.uuidHigh = uuidHigh;
            this.uuidLow = uuidLow;
            this.tag = tag;
            this.intervals = intervals;
        }

        boolean sameSource(Member o) {
            return uuidHigh == o.uuidHigh && uuidLow == o.uuidLow && tag.equals(o.tag);
        }

        Member with(long[] newIntervals) {
            return new Member(uuidHigh, uuidLow, tag, newIntervals);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Member m && sameSource(m) && Arrays.equals(intervals, m.intervals);
        }

        @Override
        public int hashCode() {
            int h = 31 * Long.hashCode(uuidHigh) + Long.hashCode(uuidLow);
            h = 31 * h + tag.hashCode();
            return 31 * h + Arrays.hashCode(intervals);
        }
    }

    /** Collects the intervals of one {@code uuid[:tag]} run while parsing. */
    private static final class Builder {
        private final long uuidHigh;
        private final long uuidLow;
        private final String tag;
        private long[] pairs = new long[4];
        private int length;
        private Member member;

        Builder(long uuidHigh, long uuidLow, String tag) {
            this.uuidHigh = uuidHigh;
            this.uuidLow = uuidLow;
            this.tag = tag;
        }

        void add(long first, long last) {
            if (length == pairs.length) {
                pairs = Arrays.copyOf(pairs, length * 2);
            }
            pairs[length++] = first;
            pairs[length++] = last;
        }

        boolean isEmpty() {
            return length == 0;
        }

        Member member() {
            if (member == null) {
                member = new Member(uuidHigh, uuidLow, tag, Intervals.normalize(pairs, length));
            }
            return member;
        }
    }
}
