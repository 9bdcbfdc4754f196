package io.rwsplit.position;

/** A cursor over position text for the hand-written parsers: no regexes, no splitting. */
final class GtidText {

    private static final int QUOTE_LIMIT = 60;

    private final String text;
    private final String what;
    private int pos;

    GtidText(String text, String what) {
        this.text = text;
        this.what = what;
    }

    int position() {
        return pos;
    }

    boolean atEnd() {
        return pos == text.length();
    }

    char peek() {
        return text.charAt(pos);
    }

    boolean peekIs(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    void advance() {
        pos++;
    }

    GtidText skipWhitespace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
        return this;
    }

    void expect(char c, String after) {
        skipWhitespace();
        if (!peekIs(c)) {
            throw error("expected '" + c + "' after " + after + found());
        }
        pos++;
        skipWhitespace();
    }

    /**
     * Reads an unsigned decimal number no greater than {@code max} (compared unsigned, so
     * {@code -1L} allows the full unsigned 64-bit range).
     */
    long unsignedDecimal(String name, long max) {
        int start = pos;
        long limit = Long.divideUnsigned(max, 10);
        long lastDigit = Long.remainderUnsigned(max, 10);
        long value = 0;
        while (pos < text.length() && isDigit(text.charAt(pos))) {
            int digit = text.charAt(pos) - '0';
            int cmp = Long.compareUnsigned(value, limit);
            if (cmp > 0 || (cmp == 0 && digit > lastDigit)) {
                throw error(name + " " + token(start) + " is out of range (max "
                        + Long.toUnsignedString(max) + ")");
            }
            value = value * 10 + digit;
            pos++;
        }
        if (pos == start) {
            throw error(name + " " + (atEnd() ? "is missing at the end" : token(start) + " is not a number"));
        }
        return value;
    }

    IllegalArgumentException error(String reason) {
        return new IllegalArgumentException("Malformed " + what + " " + quote(text) + ": " + reason);
    }

    /** The number or name starting at {@code start} (up to a separator, {@code '-'} included), quoted with its offset. */
    String token(int start) {
        return quoteRange(start, true);
    }

    /** The element starting at {@code start} (up to {@code ','}, {@code ':'} or whitespace), quoted with its offset. */
    String element(int start) {
        return quoteRange(start, false);
    }

    private String quoteRange(int start, boolean dashEnds) {
        int end = start;
        while (end < text.length() && !isSeparator(text.charAt(end), dashEnds)) {
            end++;
        }
        if (end == start && end < text.length()) {
            end++;
        }
        return quote(text.substring(start, end)) + " at offset " + start;
    }

    private String found() {
        return atEnd() ? " but the text ended" : " but found " + token(pos);
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isSeparator(char c, boolean dashEnds) {
        return c == ',' || c == ':' || (dashEnds && c == '-') || Character.isWhitespace(c);
    }

    /** Quotes a user-supplied value for an error message, truncated so a huge value stays readable. */
    static String quote(String value) {
        return value.length() <= QUOTE_LIMIT
                ? "'" + value + "'"
                : "'" + value.substring(0, QUOTE_LIMIT) + "...' (" + value.length() + " chars)";
    }

    static IllegalArgumentException flavourMismatch(String operation, GtidPosition a, GtidPosition b) {
        return new IllegalArgumentException("Cannot " + operation + " " + describe(a) + " and " + describe(b)
                + ": positions of different databases are not comparable");
    }

    private static String describe(GtidPosition p) {
        String kind = p instanceof MariaDbGtidPosition ? "MariaDB GTID position "
                : p instanceof MySqlGtidSet ? "MySQL GTID set " : "PostgreSQL LSN ";
        return kind + quote(p.toString());
    }
}
