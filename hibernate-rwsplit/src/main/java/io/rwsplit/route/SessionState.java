package io.rwsplit.route;

import static io.rwsplit.route.SqlText.afterWord;
import static io.rwsplit.route.SqlText.isWord;
import static io.rwsplit.route.SqlText.isWordChar;
import static io.rwsplit.route.SqlText.wordEnd;

/**
 * Statements that leave state in the server's session, which later statements of the same connection may
 * rely on: a user variable ({@code SET @x := 1}, {@code SELECT ... INTO @x}), a temporary table
 * ({@code CREATE TEMPORARY TABLE}), a named lock ({@code GET_LOCK(...)}) or a server-side prepared statement
 * ({@code PREPARE s FROM ...}). They all run on the primary (they are not plain reads); after one, the rest
 * of the logical connection stays there too ({@link io.rwsplit.RouteReason#SESSION_STATE}), as MaxScale does,
 * so that {@code SELECT @x} or a read of the temporary table finds what the earlier statement left.
 * <p>
 * Decided once per distinct SQL string (the result is cached with its classification); one pass, no regex.
 */
final class SessionState {

    private SessionState() {
    }

    /** Whether {@code sql}, classified as {@code kind}, creates session state on the server that runs it. */
    static boolean creates(String sql, SqlKind kind) {
        if (sql == null || kind == SqlKind.READ || kind == SqlKind.WRITE || kind == SqlKind.LOCKING_READ) {
            return false;
        }
        int start = SqlText.skipSpaceAndComments(sql, 0);
        int end = wordEnd(sql, start);
        if (isWord(sql, start, end, "set")) {
            return usesUserVariableOrLock(sql, end);
        }
        if (isWord(sql, start, end, "create")) {
            int afterReplace = afterWord(sql, afterWord(sql, end, "or"), "replace");
            return afterWord(sql, afterReplace >= 0 ? afterReplace : end, "temporary") >= 0;
        }
        if (isWord(sql, start, end, "prepare")) {
            return true;
        }
        return kind == SqlKind.PRIMARY_FUNCTION && usesUserVariableOrLock(sql, end);
    }

    /** A user variable ({@code @name}, not a system variable {@code @@name}) or {@code GET_LOCK(}, outside literals and comments. */
    private static boolean usesUserVariableOrLock(String sql, int i) {
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '@') {
                if (i + 1 < n && sql.charAt(i + 1) == '@') {
                    i = wordEnd(sql, i + 2);     // @@system_variable
                    continue;
                }
                if (i + 1 < n && (isWordChar(sql.charAt(i + 1)) || SqlText.isQuote(sql.charAt(i + 1)))) {
                    return true;
                }
                i++;
            } else if (isWordChar(c)) {
                int end = wordEnd(sql, i);
                if (isWord(sql, i, end, "get_lock") && SqlText.nextSignificantChar(sql, end) == '(') {
                    return true;
                }
                i = end;
            } else if (SqlText.isQuote(c)) {
                i = SqlText.skipQuoted(sql, i);
                if (i == SqlText.UNTERMINATED) {
                    return false;
                }
            } else if (c == '/' && SqlText.isBlockCommentStart(sql, i) && !SqlText.isExecutableComment(sql, i)) {
                i = SqlText.blockCommentEnd(sql, i);
            } else if ((c == '-' || c == '#') && SqlText.isLineCommentStart(sql, i)) {
                i = SqlText.lineCommentEnd(sql, i);
            } else {
                i++;
            }
        }
        return false;
    }
}
