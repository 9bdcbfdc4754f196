package io.rwsplit.internal.route;

/**
 * The shape of a statement: its SQL with every literal replaced by {@code ?}, an {@code IN} list of literals or
 * parameters folded to {@code in (?)}, comments dropped and whitespace runs made one space, so that the statements
 * one query makes with different values are one shape. A comment that opens the statement (Hibernate's
 * {@code hibernate.use_sql_comments}: the HQL, the named query or the entity it loads) is kept apart as the shape's
 * source. Computed once per distinct SQL string (the classification cache's miss), never per execution.
 *
 * @param text   the normalised SQL
 * @param source the comment that opened the statement, trimmed, or null
 */
public record SqlFingerprint(String text, String source) {

    /** Longest normalised text kept: the shape of a huge generated statement is its beginning. */
    static final int MAX_TEXT = 2_000;

    public static SqlFingerprint of(String sql) {
        if (sql == null) {
            return new SqlFingerprint("", null);
        }
        int n = sql.length();
        StringBuilder out = new StringBuilder(Math.min(n, MAX_TEXT));
        String source = null;
        int i = 0;
        boolean space = false;
        while (i < n && out.length() < MAX_TEXT) {
            char c = sql.charAt(i);
            if (c <= ' ') {
                space = out.length() > 0;
                i++;
            }
            else if (SqlText.isBlockCommentStart(sql, i) && !SqlText.isExecutableComment(sql, i)) {
                int end = SqlText.blockCommentEnd(sql, i);
                if (out.length() == 0 && source == null) {
                    String inside = sql.substring(i + 2, Math.max(i + 2, Math.min(end - 2, n))).trim();
                    source = inside.isEmpty() ? null : inside;
                }
                space = out.length() > 0;
                i = end;
            }
            else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                space = out.length() > 0;
                i = SqlText.lineCommentEnd(sql, i);
            }
            else {
                if (space) {
                    out.append(' ');
                    space = false;
                }
                i = token(sql, i, out);
            }
        }
        return new SqlFingerprint(foldInLists(out), source);
    }

    /** Appends the token at {@code i} (a literal as {@code ?}) and returns the index after it. */
    private static int token(String sql, int i, StringBuilder out) {
        char c = sql.charAt(i);
        int n = sql.length();
        if (c == '\'') {
            int end = SqlText.skipQuoted(sql, i);
            while (end != SqlText.UNTERMINATED && end < n && sql.charAt(end) == '\'') {
                end = SqlText.skipQuoted(sql, end);   // 'it''s': a doubled quote stays inside the literal
            }
            out.append('?');
            return end == SqlText.UNTERMINATED ? n : end;
        }
        if (c == '"' || c == '`') {   // a quoted identifier: part of the shape
            int end = SqlText.skipQuoted(sql, i);
            end = end == SqlText.UNTERMINATED ? n : end;
            out.append(sql, i, end);
            return end;
        }
        if (c == '$' && i + 1 < n && (sql.charAt(i + 1) == '$' || Character.isLetter(sql.charAt(i + 1)))) {
            int tagEnd = sql.indexOf('$', i + 1);
            if (tagEnd > 0 && SqlText.isWordOnly(sql, i + 1, tagEnd) || tagEnd == i + 1) {
                String tag = sql.substring(i, tagEnd + 1);
                int close = sql.indexOf(tag, tagEnd + 1);
                out.append('?');
                return close < 0 ? n : close + tag.length();
            }
        }
        if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
            int end = i + 1;
            while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.')) {
                end++;   // 12, 1.5, 1e3, 0x1F
            }
            out.append('?');
            return end;
        }
        if (SqlText.isWordChar(c)) {
            int end = SqlText.wordEnd(sql, i);
            out.append(sql, i, end);
            return end;
        }
        out.append(c);
        return i + 1;
    }

    /** {@code in (?, ?, ?)} (any case, any spacing the normalisation left) becomes {@code in (?)}, its case kept. */
    private static String foldInLists(StringBuilder s) {
        String text = s.toString();
        int from = 0;
        StringBuilder out = null;
        int copied = 0;
        while (true) {
            int at = indexOfIn(text, from);
            if (at < 0) {
                break;
            }
            int open = at + 2;
            if (open < text.length() && text.charAt(open) == ' ') {
                open++;
            }
            if (open >= text.length() || text.charAt(open) != '(') {
                from = at + 2;
                continue;
            }
            int j = open + 1;
            int items = 0;
            boolean expectItem = true;
            while (j < text.length()) {
                char c = text.charAt(j);
                if (c == ' ') {
                    j++;
                }
                else if (expectItem && c == '?') {
                    items++;
                    expectItem = false;
                    j++;
                }
                else if (!expectItem && c == ',') {
                    expectItem = true;
                    j++;
                }
                else {
                    break;
                }
            }
            if (items > 1 && !expectItem && j < text.length() && text.charAt(j) == ')') {
                if (out == null) {
                    out = new StringBuilder(text.length());
                }
                out.append(text, copied, at + 2).append(" (?)");
                copied = j + 1;
            }
            from = j;
        }
        if (out == null) {
            return text;
        }
        return out.append(text, copied, text.length()).toString();
    }

    /** The next {@code in} at or after {@code from} that is a word of its own (ASCII case ignored). */
    private static int indexOfIn(String s, int from) {
        for (int i = from; i + 1 < s.length(); i++) {
            char a = s.charAt(i);
            char b = s.charAt(i + 1);
            if ((a == 'i' || a == 'I') && (b == 'n' || b == 'N')
                    && (i == 0 || !SqlText.isWordChar(s.charAt(i - 1)))
                    && (i + 2 >= s.length() || !SqlText.isWordChar(s.charAt(i + 2)))) {
                return i;
            }
        }
        return -1;
    }

    /** A short id of the shape, stable across runs and JVMs: 12 hexadecimal digits of a 64-bit FNV-1a hash. */
    public String id() {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            h = (h ^ (c & 0xff)) * 0x100000001b3L;
            h = (h ^ (c >>> 8)) * 0x100000001b3L;
        }
        String hex = Long.toHexString(h);
        StringBuilder s = new StringBuilder(12);
        for (int k = hex.length(); k < 16; k++) {
            s.append('0');
        }
        return s.append(hex).substring(0, 12);
    }
}
