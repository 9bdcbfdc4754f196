package io.rwsplit.internal.route;

/**
 * Other readings of one SQL text, rewritten so that the classifier's one lexer (MySQL's default rules: {@code #}
 * comments, backslash escapes in every string, {@code --} followed by a space) reads the same tokens: every literal
 * becomes {@code ''} and every comment a space; a quoted identifier stays (as {@code "x"} when it holds anything but
 * word characters, so {@code "pg_advisory_lock"(1)} is still a call).
 * <ul>
 *   <li>{@link #mysqlWithoutBackslashEscapes}: MySQL with {@code NO_BACKSLASH_ESCAPES} ({@code 'a\'} ends there);</li>
 *   <li>{@link #postgres}: PostgreSQL: {@code #} is an operator character ({@code #>}, {@code #>>}, {@code #-}),
 *       {@code --} starts a comment without a space, block comments nest, {@code $$...$$} and {@code $tag$...$tag$}
 *       quote anything, {@code E'...'} escapes backslashes, and other strings do only with
 *       {@code standard_conforming_strings=off} ({@code backslashEscapes}).</li>
 * </ul>
 * Each runs on a classification cache miss only, and only when {@link #mayDiffer} says the text has anything they read
 * differently.
 */
final class Readings {

    private Readings() {
    }

    /**
     * What {@code sql} is under {@code lexing}: read as the database and each of its session settings that change the
     * lexing would read it, the reading that keeps it on the primary winning. No allocation unless the text has
     * something the readings differ on (a backslash; for PostgreSQL also a {@code #}, a dollar quote, ...).
     */
    static SqlKind kind(String sql, Lexing lexing) {
        SqlKind kind = SqlKind.READ;
        boolean backslash = hasBackslash(sql);
        if (lexing != Lexing.POSTGRESQL) {
            kind = SqlClassifier.classifyOneReading(sql);
            if (backslash) {
                kind = kind.stricter(SqlClassifier.classifyOneReading(mysqlWithoutBackslashEscapes(sql)));
            }
        }
        if (lexing != Lexing.MYSQL) {
            if (mayDiffer(sql)) {
                kind = kind.stricter(SqlClassifier.classifyOneReading(postgres(sql, false)));
            }
            else if (lexing == Lexing.POSTGRESQL) {
                kind = SqlClassifier.classifyOneReading(sql);   // both lexers read these tokens alike
            }
            if (backslash) {
                kind = kind.stricter(SqlClassifier.classifyOneReading(postgres(sql, true)));
            }
        }
        return kind;
    }

    /** Whether {@code sql} holds a backslash (which the settings of both databases read two ways). */
    static boolean hasBackslash(String sql) {
        return sql.indexOf('\\') >= 0;
    }

    /**
     * Whether PostgreSQL's lexing may read {@code sql} otherwise than MySQL's: a {@code #}, a backslash, a dollar
     * quote, {@code --} without a space, a nested block comment.
     */
    static boolean mayDiffer(String sql) {
        int n = sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            if (c == '#' || c == '\\') {
                return true;
            }
            if (c == '$' && i + 1 < n && (sql.charAt(i + 1) == '$' || Character.isLetter(sql.charAt(i + 1))
                    || sql.charAt(i + 1) == '_') && (i == 0 || !SqlText.isWordChar(sql.charAt(i - 1)))) {
                return true;
            }
            if (c == '-' && i + 2 < n && sql.charAt(i + 1) == '-' && sql.charAt(i + 2) > ' ') {
                return true;
            }
            if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                int nested = sql.indexOf("/*", i + 2);
                if (nested >= 0 && (close < 0 || nested < close)) {
                    return true;
                }
                i = close < 0 ? n : close + 1;
            }
        }
        return false;
    }

    /** {@code sql} as MySQL reads it with {@code NO_BACKSLASH_ESCAPES}. */
    static String mysqlWithoutBackslashEscapes(String sql) {
        return rewrite(sql, false, false);
    }

    /** {@code sql} as PostgreSQL reads it; {@code backslashEscapes}: with {@code standard_conforming_strings=off}. */
    static String postgres(String sql, boolean backslashEscapes) {
        return rewrite(sql, true, backslashEscapes);
    }

    /** The rewriting; an unterminated literal or identifier is left as it is (the lexer then reads it as such). */
    private static String rewrite(String sql, boolean postgres, boolean backslashEscapes) {
        int n = sql.length();
        StringBuilder out = new StringBuilder(n);
        boolean started = false;    // a token before: a # at the very start is no operator in either database
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            int end;
            if (c == '\'') {
                end = quotedEnd(sql, i, '\'', backslashEscapes || postgres && isEscapeString(sql, i));
                if (end < 0) {
                    return out.append(sql, i, n).toString();
                }
                out.append("''");
            }
            else if (c == '"' || c == '`' && !postgres) {
                end = quotedEnd(sql, i, c, !postgres && c == '"' && backslashEscapes);
                if (end < 0) {
                    return out.append(sql, i, n).toString();
                }
                out.append(SqlText.isWordOnly(sql, i + 1, end - 1) ? sql.substring(i, end) : c + "x" + c);
            }
            else if (postgres && c == '$' && (end = dollarQuoteEnd(sql, i)) != i) {
                if (end < 0) {
                    return out.append(sql, i, n).toString();
                }
                out.append("''");
            }
            else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-'
                    && (postgres || i + 2 == n || sql.charAt(i + 2) <= ' ')) {
                end = SqlText.lineCommentEnd(sql, i);
                out.append(' ');
            }
            else if (c == '#' && (!postgres || !started)) {
                end = SqlText.lineCommentEnd(sql, i);
                out.append(' ');
            }
            else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                if (!postgres && SqlText.isExecutableComment(sql, i)) {
                    return out.append(sql, i, n).toString();     // MySQL runs it: the lexer says OTHER
                }
                end = postgres ? nestedCommentEnd(sql, i) : SqlText.blockCommentEnd(sql, i);
                out.append(' ');
            }
            else {
                out.append(c == '#' ? '+' : c);
                end = i + 1;
            }
            started |= c > ' ';
            i = end;
        }
        return out.toString();
    }

    /** {@code E'...'} (or {@code e'}): backslash escapes apply inside. */
    private static boolean isEscapeString(String sql, int quote) {
        if (quote == 0 || (sql.charAt(quote - 1) | 0x20) != 'e') {
            return false;
        }
        return quote == 1 || !SqlText.isWordChar(sql.charAt(quote - 2));
    }


    /** The index after the text quoted by {@code quote} from {@code i} (doubling escapes it), or -1. */
    private static int quotedEnd(String sql, int i, char quote, boolean backslashEscapes) {
        int n = sql.length();
        for (int j = i + 1; j < n; j++) {
            char c = sql.charAt(j);
            if (backslashEscapes && c == '\\') {
                j++;
            }
            else if (c == quote) {
                if (j + 1 < n && sql.charAt(j + 1) == quote) {
                    j++;
                }
                else {
                    return j + 1;
                }
            }
        }
        return -1;
    }


    /**
     * For {@code $} at {@code i}: the index after the dollar-quoted string it opens ({@code $$} or {@code $tag$}), -1
     * when it never closes, or {@code i} when it opens none ({@code $1} is a parameter, {@code a$b} part of a name).
     */
    private static int dollarQuoteEnd(String sql, int i) {
        int n = sql.length();
        if (i > 0 && SqlText.isWordChar(sql.charAt(i - 1))) {
            return i;
        }
        int j = i + 1;
        while (j < n && (Character.isLetter(sql.charAt(j)) || sql.charAt(j) == '_'
                || j > i + 1 && Character.isDigit(sql.charAt(j)))) {
            j++;
        }
        if (j >= n || sql.charAt(j) != '$') {
            return i;
        }
        String tag = sql.substring(i, j + 1);
        int close = sql.indexOf(tag, j + 1);
        return close < 0 ? -1 : close + tag.length();
    }

    /** The index after the block comment opened at {@code i}, counting nested ones, or the length. */
    private static int nestedCommentEnd(String sql, int i) {
        int n = sql.length();
        int depth = 0;
        for (int j = i; j + 1 < n; j++) {
            char c = sql.charAt(j);
            if (c == '/' && sql.charAt(j + 1) == '*') {
                depth++;
                j++;
            }
            else if (c == '*' && sql.charAt(j + 1) == '/') {
                depth--;
                j++;
                if (depth == 0) {
                    return j + 1;
                }
            }
        }
        return n;
    }
}
