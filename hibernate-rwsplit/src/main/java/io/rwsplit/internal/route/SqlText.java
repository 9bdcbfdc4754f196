package io.rwsplit.internal.route;

/**
 * Lexing primitives over SQL text for the per-statement hot path: every method takes the original string and an
 * index and returns an index or a boolean, so nothing is copied and nothing is allocated.
 *
 * <p>The rules are MySQL/MariaDB's, which are the conservative choice for H2 too: {@code '...'} and {@code "..."}
 * honour backslash escapes (a literal the database closes earlier than we do shows up as unterminated, and callers
 * treat that as "send to the primary"); a doubled quote needs no special case because it reads as two adjacent
 * literals; {@code --} starts a comment only when followed by whitespace, so {@code a--1} stays an expression.
 */
final class SqlText {

    /** Returned by {@link #skipQuoted} for a literal or quoted identifier that never closes. */
    static final int UNTERMINATED = -1;

    private SqlText() {
    }

    /** Whether {@code s[start, end)} is a non-empty run of word characters. */
    static boolean isWordOnly(String s, int start, int end) {
        if (end <= start) {
            return false;
        }
        for (int i = start; i < end; i++) {
            if (!isWordChar(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Letters, digits, {@code _} and {@code $}: the characters of an unquoted identifier or keyword. */
    static boolean isWordChar(char c) {
        char lower = (char) (c | 0x20);     // folds ASCII upper case letters onto lower case, moves nothing else into a-z
        if (lower >= 'a' && lower <= 'z') {
            return true;
        }
        if (c < 128) {
            return (c >= '0' && c <= '9') || c == '_' || c == '$';
        }
        return Character.isLetterOrDigit(c);
    }

    /** The index just after the word starting at {@code i}; {@code i} itself if there is no word there. */
    static int wordEnd(String s, int i) {
        int n = s.length();
        while (i < n && isWordChar(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** Whether {@code s[start, end)} is {@code keyword}, ignoring ASCII case; {@code keyword} must be lower case. */
    static boolean isWord(String s, int start, int end, String keyword) {
        int length = keyword.length();
        if (end - start != length) {
            return false;
        }
        for (int k = 0; k < length; k++) {
            char c = s.charAt(start + k);
            if (c >= 'A' && c <= 'Z') {
                c = (char) (c + ('a' - 'A'));
            }
            if (c != keyword.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s[start, end)} is one of {@code keywords} (lower case), ignoring ASCII case. */
    static boolean isWordIn(String s, int start, int end, String[] keywords) {
        for (String keyword : keywords) {
            if (isWord(s, start, end, keyword)) {
                return true;
            }
        }
        return false;
    }

    /**
     * If the next word after {@code i} (skipping whitespace and comments) is {@code keyword}, the index just after
     * it, otherwise -1. A negative {@code i} gives -1, so calls chain: {@code afterWord(s, afterWord(s, i, "in"), ...)}.
     */
    static int afterWord(String s, int i, String keyword) {
        if (i < 0) {
            return -1;
        }
        int start = skipSpaceAndComments(s, i);
        int end = wordEnd(s, start);
        return isWord(s, start, end, keyword) ? end : -1;
    }

    /** The next character after {@code i} that is not whitespace or inside a comment, or {@code 0} at the end. */
    static char nextSignificantChar(String s, int i) {
        i = skipSpaceAndComments(s, i);
        return i < s.length() ? s.charAt(i) : 0;
    }

    /**
     * Skips whitespace and ordinary comments. Stops at anything else, including a MySQL executable comment
     * ({@code /*!} or MariaDB's {@code /*M!}), whose content is SQL rather than commentary.
     */
    static int skipSpaceAndComments(String s, int i) {
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c <= ' ') {
                i++;
            } else if (isBlockCommentStart(s, i) && !isExecutableComment(s, i)) {
                i = blockCommentEnd(s, i);
            } else if (isLineCommentStart(s, i)) {
                i = lineCommentEnd(s, i);
            } else {
                return i;
            }
        }
        return i;
    }

    static boolean isBlockCommentStart(String s, int i) {
        return s.charAt(i) == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*';
    }

    /** {@code /*!...} (MySQL) or {@code /*M!...} (MariaDB): the server runs what is inside. */
    static boolean isExecutableComment(String s, int i) {
        int n = s.length();
        if (!isBlockCommentStart(s, i) || i + 2 >= n) {
            return false;
        }
        char c = s.charAt(i + 2);
        return c == '!' || (c == 'M' && i + 3 < n && s.charAt(i + 3) == '!');
    }

    /** {@code # ...} or {@code -- ...}; like MySQL, {@code --} needs whitespace (or the end) after it. */
    static boolean isLineCommentStart(String s, int i) {
        char c = s.charAt(i);
        if (c == '#') {
            return true;
        }
        int n = s.length();
        return c == '-' && i + 1 < n && s.charAt(i + 1) == '-' && (i + 2 == n || s.charAt(i + 2) <= ' ');
    }

    /** The index of the {@code *}{@code /} closing the block comment opened at {@code i}, or the length if none. */
    static int blockCommentClose(String s, int i) {
        int close = s.indexOf("*/", i + 2);
        return close < 0 ? s.length() : close;
    }

    /** The index just after the block comment opened at {@code i} (the length if it never closes). */
    static int blockCommentEnd(String s, int i) {
        int close = blockCommentClose(s, i);
        return close == s.length() ? close : close + 2;
    }

    /** The index of the line break ending the line comment at {@code i}, or the length. */
    static int lineCommentEnd(String s, int i) {
        int n = s.length();
        while (i < n && s.charAt(i) != '\n' && s.charAt(i) != '\r') {
            i++;
        }
        return i;
    }

    /**
     * The index just after the literal or quoted identifier opened by the quote at {@code i} ({@code '}, {@code "}
     * or a backtick), or {@link #UNTERMINATED}. Backslash escapes apply inside {@code '...'} and {@code "..."}.
     */
    static int skipQuoted(String s, int i) {
        char quote = s.charAt(i);
        boolean backslashEscapes = quote != '`';
        int n = s.length();
        for (i++; i < n; i++) {
            char c = s.charAt(i);
            if (c == quote) {
                return i + 1;
            }
            if (c == '\\' && backslashEscapes) {
                i++;
            }
        }
        return UNTERMINATED;
    }

    /**
     * The index of the {@code ;} that ends the statement starting at {@code from} (outside literals, quoted names and
     * comments), or the length when none does; {@link #UNTERMINATED} when a literal never closes.
     */
    static int statementEnd(String s, int from) {
        int n = s.length();
        int i = from;
        while (i < n) {
            char c = s.charAt(i);
            if (isQuote(c)) {
                i = skipQuoted(s, i);
                if (i == UNTERMINATED) {
                    return UNTERMINATED;
                }
            } else if (isBlockCommentStart(s, i)) {
                i = blockCommentEnd(s, i);
            } else if (isLineCommentStart(s, i)) {
                i = lineCommentEnd(s, i);
            } else if (c == ';') {
                return i;
            } else {
                i++;
            }
        }
        return n;
    }

    /**
     * The statements of a string of several, the first starting at {@code from}, each as a string of its own without
     * its {@code ;} (one whose literal never closes runs to the end). Runs on a classification cache miss only.
     */
    static java.util.List<String> statements(String s, int from) {
        java.util.List<String> statements = new java.util.ArrayList<>();
        int n = s.length();
        for (int start = from; start < n; ) {
            int end = statementEnd(s, start);
            if (end == UNTERMINATED) {
                end = n;
            }
            statements.add(s.substring(start, end));
            start = end == n ? n : skipSpaceAndComments(s, end + 1);
        }
        return statements;
    }

    /**
     * Whether more than whitespace and comments follows the statement starting at {@code from}: a string of several
     * statements (a {@code ;} that only ends the text does not count).
     */
    static boolean holdsSeveralStatements(String s, int from) {
        int end = statementEnd(s, from);
        return end != UNTERMINATED && end < s.length() && skipSpaceAndComments(s, end + 1) < s.length();
    }

    static boolean isQuote(char c) {
        return c == '\'' || c == '"' || c == '`';
    }
}
