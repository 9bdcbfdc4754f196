package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.SqlText.UNTERMINATED;
import static io.rwsplit.internal.route.SqlText.afterWord;
import static io.rwsplit.internal.route.SqlText.isWord;
import static io.rwsplit.internal.route.SqlText.isWordChar;
import static io.rwsplit.internal.route.SqlText.isWordIn;
import static io.rwsplit.internal.route.SqlText.nextSignificantChar;
import static io.rwsplit.internal.route.SqlText.wordEnd;

/**
 * Tells, per statement, whether SQL may run on a replica ({@link #classify}) and which route its leading
 * {@code rwsplit:} comment asks for ({@link #hint}).
 *
 * <p>This runs for every statement, so it works on the characters of the original string with index arithmetic:
 * no regular expressions, no copies, no locks, no map lookups. When in doubt the answer is a kind that goes to the
 * primary: unknown statements, MySQL executable comments ({@code /*!...}), literals that never close and several
 * statements in one string are all {@link SqlKind#OTHER}.
 */
public final class SqlClassifier {

    private static final String[] READ_WORDS = {"select", "values", "table"};
    private static final String[] WRITE_WORDS = {"insert", "update", "delete", "merge", "replace", "upsert", "truncate",
            "copy"};
    /** The statements a PostgreSQL writable common table expression can hold: {@code WITH x AS (UPDATE ...)}. */
    private static final String[] CTE_WRITE_WORDS = {"insert", "update", "delete", "merge"};
    private static final String[] DDL_WORDS = {"create", "alter", "drop", "rename", "comment", "grant", "revoke",
            "optimize", "repair", "vacuum", "cluster", "reindex", "refresh", "import", "security"};
    private static final String[] CALL_WORDS = {"call", "exec", "execute", "do"};
    private static final String[] SESSION_WORDS = {"set", "use", "lock", "unlock", "begin", "commit", "rollback",
            "savepoint", "release", "xa", "flush", "kill", "handler", "prepare", "deallocate", "listen", "unlisten", "notify",
            "discard", "reset", "checkpoint"};
    /** The statement keywords that can follow the common table expressions of a {@code WITH}. */
    private static final String[] WITH_BODY_WORDS = {"select", "values", "table", "insert", "update", "delete",
            "replace", "merge"};

    private SqlClassifier() {
    }

    /**
     * What {@code sql} is, as far as routing cares, read under every lexing of either database
     * ({@link #classify(String, Lexing)} with {@link Lexing#ANY}); {@link SqlKind#OTHER} for {@code null} or blank SQL.
     */
    public static SqlKind classify(String sql) {
        return classify(sql, Lexing.ANY);
    }

    /** What {@code sql} is under {@code lexing}, read as {@link Readings#kind} reads it. */
    public static SqlKind classify(String sql, Lexing lexing) {
        return sql == null ? SqlKind.OTHER : Readings.kind(sql, lexing);
    }

    /** What {@code sql} is under MySQL's default lexing alone. */
    static SqlKind classifyOneReading(String sql) {
        int start = skipToFirstKeyword(sql, 0);
        if (start == sql.length()) {
            return SqlKind.OTHER;
        }
        if (SqlText.holdsSeveralStatements(sql, start)) {
            return severalStatements(sql, start);
        }
        if (sql.charAt(start) == '{') {
            return classifyJdbcEscape(sql, start + 1);
        }
        return classifyStatement(sql, start, wordEnd(sql, start));
    }

    private static SqlKind classifyStatement(String sql, int start, int end) {
        if (isWordIn(sql, start, end, READ_WORDS)) {
            return scanRead(sql, end);
        }
        if (isWord(sql, start, end, "with")) {
            return classifyWith(sql, end);
        }
        if (isWordIn(sql, start, end, WRITE_WORDS)) {
            return SqlKind.WRITE;
        }
        if (isWord(sql, start, end, "begin") && afterWord(sql, end, "not") >= 0) {
            return SqlKind.CALL;   // MariaDB's BEGIN NOT ATOMIC ... END: a block of statements, as a call runs one
        }
        if (isWordIn(sql, start, end, SESSION_WORDS)) {
            return SqlKind.SESSION;
        }
        if (isWordIn(sql, start, end, DDL_WORDS)) {
            return SqlKind.DDL;
        }
        if (isWordIn(sql, start, end, CALL_WORDS)) {
            return SqlKind.CALL;
        }
        if (isWord(sql, start, end, "load")) {
            return afterWord(sql, end, "data") >= 0 || afterWord(sql, end, "xml") >= 0 ? SqlKind.WRITE : SqlKind.OTHER;
        }
        if (isWord(sql, start, end, "start")) {
            return afterWord(sql, end, "transaction") >= 0 ? SqlKind.SESSION : SqlKind.OTHER;
        }
        if (isWord(sql, start, end, "analyze")) {
            boolean table = afterWord(sql, end, "table") >= 0
                    || afterWord(sql, end, "local") >= 0
                    || afterWord(sql, end, "no_write_to_binlog") >= 0;
            return table ? SqlKind.DDL : SqlKind.OTHER;
        }
        return SqlKind.OTHER;
    }

    /**
     * Several statements in one string (a multi-statement string the driver sends whole), the first starting at
     * {@code start}: {@link SqlKind#WRITE} when any of them writes, changes the schema, calls a procedure or locks
     * rows, so that it is recorded as a write and refused where a write is; {@link SqlKind#SESSION} when each is a
     * session command ({@code SET ...; SET ...}); else {@link SqlKind#OTHER}. One that
     * begins with DDL or a call keeps that kind: its {@code ;} may be inside a body it defines or runs. Runs on a
     * classification cache miss only; each statement is read as a string of its own.
     */
    private static SqlKind severalStatements(String sql, int start) {
        boolean sessionOnly = true;
        boolean first = true;
        for (String one : SqlText.statements(sql, start)) {
            SqlKind kind = classifyOneReading(one);
            if (first && (kind == SqlKind.DDL || kind == SqlKind.CALL)) {
                return kind;   // a body of its own perhaps (CREATE PROCEDURE ... BEGIN ...; END, DO $$ ...; $$)
            }
            if (kind == SqlKind.WRITE || kind == SqlKind.DDL || kind == SqlKind.CALL || kind == SqlKind.LOCKING_READ) {
                return SqlKind.WRITE;
            }
            sessionOnly &= kind == SqlKind.SESSION;
            first = false;
        }
        return sessionOnly ? SqlKind.SESSION : SqlKind.OTHER;
    }

    /** {@code {call p(?)}} or {@code {? = call f(?)}}; any other JDBC escape at the start is {@code OTHER}. */
    private static SqlKind classifyJdbcEscape(String sql, int i) {
        i = SqlText.skipSpaceAndComments(sql, i);
        if (i < sql.length() && sql.charAt(i) == '?') {
            i = SqlText.skipSpaceAndComments(sql, i + 1);
            if (i == sql.length() || sql.charAt(i) != '=') {
                return SqlKind.OTHER;
            }
            i++;
        }
        return afterWord(sql, i, "call") >= 0 ? SqlKind.CALL : SqlKind.OTHER;
    }

    /**
     * Finds the statement after the common table expressions: the first statement keyword at parenthesis depth 0,
     * or a parenthesised query that directly follows a CTE body. A read is then scanned from just after
     * {@code WITH}, so lock clauses and primary functions inside the CTEs count too. A CTE whose body is an
     * {@code INSERT}, {@code UPDATE}, {@code DELETE} or {@code MERGE} (PostgreSQL's writable CTEs) makes the whole
     * statement a write, whatever follows.
     */
    private static SqlKind classifyWith(String sql, int afterWith) {
        int n = sql.length();
        int depth = 0;
        boolean afterCteBody = false;
        boolean afterOpening = false;   // the previous significant character is '('
        int i = afterWith;
        while (i < n) {
            char c = sql.charAt(i);
            if (c <= ' ') {
                i++;
                continue;
            } else if (SqlText.isQuote(c)) {
                i = SqlText.skipQuoted(sql, i);
                if (i == UNTERMINATED) {
                    return SqlKind.OTHER;
                }
                afterCteBody = false;
            } else if (SqlText.isExecutableComment(sql, i)) {
                return SqlKind.OTHER;
            } else if (SqlText.isBlockCommentStart(sql, i)) {
                i = SqlText.blockCommentEnd(sql, i);
                continue;
            } else if (SqlText.isLineCommentStart(sql, i)) {
                i = SqlText.lineCommentEnd(sql, i);
                continue;
            } else if (c == '(' && depth == 0 && afterCteBody) {
                int start = skipToFirstKeyword(sql, i);
                return classifyWithBody(sql, afterWith, start, wordEnd(sql, start));
            } else if (c == '(') {
                depth++;
                i++;
                afterOpening = true;
                continue;
            } else if (c == ')') {
                if (--depth < 0) {
                    return SqlKind.OTHER;
                }
                afterCteBody = depth == 0;
                i++;
            } else if (isWordChar(c)) {
                int end = wordEnd(sql, i);
                if (depth == 0 && isWordIn(sql, i, end, WITH_BODY_WORDS)) {
                    return classifyWithBody(sql, afterWith, i, end);
                }
                if (afterOpening && isWordIn(sql, i, end, CTE_WRITE_WORDS)) {
                    return SqlKind.WRITE;
                }
                afterCteBody = false;
                i = end;
            } else {
                afterCteBody = false;
                i++;
            }
            afterOpening = false;
        }
        return SqlKind.OTHER;
    }

    private static SqlKind classifyWithBody(String sql, int afterWith, int start, int end) {
        if (isWordIn(sql, start, end, READ_WORDS)) {
            return scanRead(sql, afterWith);
        }
        return isWordIn(sql, start, end, WRITE_WORDS) ? SqlKind.WRITE : SqlKind.OTHER;
    }

    /**
     * One pass over the rest of a read, outside literals and comments, looking for what keeps it on the primary.
     * A new table ({@code SELECT ... INTO t}) makes it a write, a lock clause wins over a primary function; an
     * executable comment, an unterminated literal or a second statement makes it {@code OTHER}.
     */
    private static SqlKind scanRead(String sql, int i) {
        int n = sql.length();
        boolean locking = false;
        boolean primaryFunction = false;
        boolean writes = false;
        char previous = ' ';    // the last significant character before the current token
        while (i < n) {
            char c = sql.charAt(i);
            if (isWordChar(c)) {
                int end = wordEnd(sql, i);
                SqlKind clause = clauseAt(sql, i, end, previous);
                writes |= clause == SqlKind.WRITE;
                locking |= clause == SqlKind.LOCKING_READ;
                primaryFunction |= clause == SqlKind.PRIMARY_FUNCTION;
                previous = 'a';
                i = end;
            } else if (c <= ' ') {
                i++;
            } else if (SqlText.isQuote(c)) {
                int close = SqlText.skipQuoted(sql, i);
                if (close == UNTERMINATED) {
                    return SqlKind.OTHER;
                }
                // a quoted name called as a function: "pg_advisory_lock"(1), `get_lock`('x', 1)
                primaryFunction |= c != '\'' && isQuotedCall(sql, i + 1, close - 1, close);
                previous = c;
                i = close;
            } else if (c == '/' && SqlText.isExecutableComment(sql, i)) {
                return SqlKind.OTHER;
            } else if (c == '/' && SqlText.isBlockCommentStart(sql, i)) {
                i = SqlText.blockCommentEnd(sql, i);
            } else if ((c == '-' || c == '#') && SqlText.isLineCommentStart(sql, i)) {
                i = SqlText.lineCommentEnd(sql, i);
            } else if (c == ';') {
                if (SqlText.skipSpaceAndComments(sql, i + 1) < n) {
                    return SqlKind.OTHER;
                }
                i = n;
            } else {
                previous = c;
                i++;
            }
        }
        return writes ? SqlKind.WRITE : locking ? SqlKind.LOCKING_READ
                : primaryFunction ? SqlKind.PRIMARY_FUNCTION : SqlKind.READ;
    }

    /**
     * What the word {@code sql[start, end)} of a read starts: a lock clause, a primary function, or nothing (READ).
     * Most words are column and table aliases, so the word's length picks the few keywords worth comparing.
     */
    private static SqlKind clauseAt(String sql, int start, int end, char previous) {
        switch (end - start) {
            case 3:
                if (isWord(sql, start, end, "for")) {
                    return isLockAfterFor(sql, end) ? SqlKind.LOCKING_READ : SqlKind.READ;
                }
                return SqlKind.READ;
            case 4:
                if (isWord(sql, start, end, "lock")) {
                    int share = afterWord(sql, afterWord(sql, end, "in"), "share");
                    return afterWord(sql, share, "mode") >= 0 ? SqlKind.LOCKING_READ : SqlKind.READ;
                }
                if (isWord(sql, start, end, "into")) {
                    return intoTarget(sql, end);
                }
                return isWord(sql, start, end, "next") ? sequenceValue(sql, end) : SqlKind.READ;
            case 6:
                return isWord(sql, start, end, "setval") ? call(sql, end) : SqlKind.READ;
            case 7:
                if (isWord(sql, start, end, "nextval") || isWord(sql, start, end, "currval")) {
                    return previous == '.' ? SqlKind.PRIMARY_FUNCTION : call(sql, end);     // seq.nextval, nextval(seq)
                }
                if (isWord(sql, start, end, "lastval")) {
                    return call(sql, end);
                }
                return isWord(sql, start, end, "current") ? sequenceValue(sql, end) : SqlKind.READ;
            case 8:
                if (isWord(sql, start, end, "previous")) {
                    return sequenceValue(sql, end);
                }
                if (isWord(sql, start, end, "identity")) {
                    return isSystemVariable(sql, start) ? SqlKind.PRIMARY_FUNCTION : SqlKind.READ;     // @@identity
                }
                return isWord(sql, start, end, "get_lock") ? call(sql, end) : SqlKind.READ;
            case 9:
                return isWord(sql, start, end, "row_count") || isWord(sql, start, end, "pg_notify")
                        ? call(sql, end) : SqlKind.READ;
            case 10:
                return isWord(sql, start, end, "found_rows") || isWord(sql, start, end, "set_config")
                        ? call(sql, end) : SqlKind.READ;
            case 12:
                return isWord(sql, start, end, "release_lock") || isWord(sql, start, end, "is_free_lock")
                        || isWord(sql, start, end, "is_used_lock") || isWord(sql, start, end, "txid_current")
                        ? call(sql, end) : SqlKind.READ;
            case 14:
                if (isWord(sql, start, end, "last_insert_id")) {    // LAST_INSERT_ID(), @@last_insert_id
                    return isSystemVariable(sql, start) ? SqlKind.PRIMARY_FUNCTION : call(sql, end);
                }
                return SqlKind.READ;
            case 17:
                return isWord(sql, start, end, "release_all_locks") ? call(sql, end) : SqlKind.READ;
            case 19:
                // the FOUND_ROWS() that follows runs on the primary: the count must be of a query it ran
                return isWord(sql, start, end, "sql_calc_found_rows") ? SqlKind.PRIMARY_FUNCTION : SqlKind.READ;
            default:
                return end - start > 8 && isPostgresPrimaryFunction(sql, start, end) ? call(sql, end) : SqlKind.READ;
        }
    }

    /**
     * PostgreSQL functions that lock, notify or need a transaction id, none of which a standby can do or share:
     * {@code pg_advisory_lock} and every other {@code pg_advisory_*} / {@code pg_try_advisory_*} function and
     * {@code pg_current_xact_id} ({@code pg_notify} is matched by its length). Only words starting with {@code pg_}
     * are compared.
     */
    private static boolean isPostgresPrimaryFunction(String sql, int start, int end) {
        if ((sql.charAt(start) | 0x20) != 'p' || (sql.charAt(start + 1) | 0x20) != 'g' || sql.charAt(start + 2) != '_') {
            return false;
        }
        return startsWith(sql, start, end, "pg_advisory_") || startsWith(sql, start, end, "pg_try_advisory_")
                || isWord(sql, start, end, "pg_current_xact_id");
    }

    /**
     * Whether the quoted name {@code sql[start, end)}, followed by {@code (} after {@code afterQuote}, is one of the
     * functions a read must run on the primary for (a lock, a sequence, a notification).
     */
    static boolean isQuotedCall(String sql, int start, int end, int afterQuote) {
        if (!SqlText.isWordOnly(sql, start, end) || nextSignificantChar(sql, afterQuote) != '(') {
            return false;
        }
        // rare (a quoted function name), and the result is cached: the name is looked up as if written unquoted
        String call = sql.substring(start, end) + "()";
        return clauseAt(call, 0, end - start, ' ') == SqlKind.PRIMARY_FUNCTION;
    }

    /**
     * A function that takes a session lock: {@code GET_LOCK}, and every {@code pg_advisory_*} /
     * {@code pg_try_advisory_*} other than the unlocks: the rest of the logical connection stays where the lock is.
     */
    static boolean takesLock(String sql, int start, int end) {
        if (isWord(sql, start, end, "get_lock")) {
            return true;
        }
        if (!startsWith(sql, start, end, "pg_advisory_") && !startsWith(sql, start, end, "pg_try_advisory_")) {
            return false;
        }
        for (int i = start; i + 6 <= end; i++) {
            if (sql.regionMatches(true, i, "unlock", 0, 6)) {
                return false;
            }
        }
        return true;
    }

    /** {@code pg_advisory_unlock}, {@code pg_advisory_unlock_shared} or {@code pg_advisory_unlock_all}. */
    static boolean isAdvisoryUnlock(String sql, int start, int end) {
        return startsWith(sql, start, end, "pg_advisory_unlock");
    }

    /** Whether the word {@code sql[start, end)} starts with {@code prefix} (lower case), ignoring ASCII case. */
    private static boolean startsWith(String sql, int start, int end, String prefix) {
        return end - start >= prefix.length() && sql.regionMatches(true, start, prefix, 0, prefix.length());
    }

    /**
     * What {@code SELECT ... INTO} puts its rows into: a new table (PostgreSQL's {@code SELECT * INTO archive FROM t})
     * is a write; a variable ({@code INTO @x}), a server file ({@code INTO OUTFILE | DUMPFILE}) or a temporary table
     * ({@code INTO TEMP t}, which pins the session) runs on the primary without being a write others read.
     */
    private static SqlKind intoTarget(String sql, int afterInto) {
        int next = SqlText.skipSpaceAndComments(sql, afterInto);
        if (next >= sql.length() || sql.charAt(next) == '@') {
            return SqlKind.PRIMARY_FUNCTION;
        }
        int end = wordEnd(sql, next);
        return isWord(sql, next, end, "outfile") || isWord(sql, next, end, "dumpfile") || isWord(sql, next, end, "temp")
                || isWord(sql, next, end, "temporary") || isWord(sql, next, end, "local")
                ? SqlKind.PRIMARY_FUNCTION : SqlKind.WRITE;
    }

    /** A primary function if the name that ends at {@code afterName} is called, as in {@code found_rows()}. */
    private static SqlKind call(String sql, int afterName) {
        return nextSignificantChar(sql, afterName) == '(' ? SqlKind.PRIMARY_FUNCTION : SqlKind.READ;
    }

    private static SqlKind sequenceValue(String sql, int afterFirstWord) {
        return afterWord(sql, afterWord(sql, afterFirstWord, "value"), "for") >= 0
                ? SqlKind.PRIMARY_FUNCTION
                : SqlKind.READ;
    }

    /** FOR UPDATE, FOR SHARE, FOR NO KEY UPDATE, FOR KEY SHARE; not FOR SYSTEM_TIME or NEXT VALUE FOR seq. */
    private static boolean isLockAfterFor(String sql, int afterFor) {
        return afterWord(sql, afterFor, "update") >= 0
                || afterWord(sql, afterFor, "share") >= 0
                || afterWord(sql, afterWord(sql, afterWord(sql, afterFor, "no"), "key"), "update") >= 0
                || afterWord(sql, afterWord(sql, afterFor, "key"), "share") >= 0;
    }

    /** {@code @@name}: a system variable such as {@code @@identity}. */
    private static boolean isSystemVariable(String sql, int start) {
        return start >= 2 && sql.charAt(start - 1) == '@' && sql.charAt(start - 2) == '@';
    }

    /** Skips whitespace, ordinary comments and opening parentheses: where the first keyword should be. */
    private static int skipToFirstKeyword(String sql, int i) {
        int n = sql.length();
        while (true) {
            i = SqlText.skipSpaceAndComments(sql, i);
            if (i == n || sql.charAt(i) != '(') {
                return i;
            }
            i++;
        }
    }

    /**
     * The route asked for by the comments in front of the first keyword: {@code /* rwsplit:primary *}{@code /},
     * {@code -- rwsplit:replica}, {@code # rwsplit:primary}. Case and whitespace inside the comment do not matter and
     * other comments, such as Hibernate's {@code /* load Person *}{@code /}, may come before or after it.
     *
     * @return {@link SqlHint#NONE} when there is no {@code rwsplit} comment (or {@code sql} is {@code null})
     * @throws IllegalArgumentException when a comment starting with {@code rwsplit} names an unknown route, or two
     *                                  comments ask for different routes
     */
    public static SqlHint hint(String sql) {
        if (sql == null) {
            return SqlHint.NONE;
        }
        SqlHint hint = SqlHint.NONE;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            SqlHint found;
            if (c <= ' ' || c == '(') {
                i++;
                continue;
            } else if (SqlText.isBlockCommentStart(sql, i) && !SqlText.isExecutableComment(sql, i)) {
                found = hintIn(sql, i + 2, SqlText.blockCommentClose(sql, i));
                i = SqlText.blockCommentEnd(sql, i);
            } else if (SqlText.isLineCommentStart(sql, i)) {
                int end = SqlText.lineCommentEnd(sql, i);
                found = hintIn(sql, c == '#' ? i + 1 : i + 2, end);
                i = end;
            } else {
                break;
            }
            if (found != SqlHint.NONE) {
                if (hint != SqlHint.NONE && hint != found) {
                    throw new IllegalArgumentException("conflicting rwsplit hints in SQL comments: rwsplit:"
                            + name(hint) + " and rwsplit:" + name(found));
                }
                hint = found;
            }
        }
        return hint;
    }

    /** The hint in the comment text {@code sql[from, to)}, if that text starts with the word {@code rwsplit}. */
    private static SqlHint hintIn(String sql, int from, int to) {
        int start = skipBlanks(sql, from, to);
        int end = wordEnd(sql, start);
        if (!isWord(sql, start, end, "rwsplit")) {
            return SqlHint.NONE;
        }
        int colon = skipBlanks(sql, end, to);
        if (colon == to || sql.charAt(colon) != ':') {
            throw unknownHint(sql, start, to);
        }
        int value = skipBlanks(sql, colon + 1, to);
        int valueEnd = wordEnd(sql, value);
        if (skipBlanks(sql, valueEnd, to) == to) {
            if (isWord(sql, value, valueEnd, "primary")) {
                return SqlHint.PRIMARY;
            }
            if (isWord(sql, value, valueEnd, "replica")) {
                return SqlHint.REPLICA;
            }
        }
        throw unknownHint(sql, value, to);
    }

    private static IllegalArgumentException unknownHint(String sql, int from, int to) {
        while (to > from && sql.charAt(to - 1) <= ' ') {
            to--;
        }
        return new IllegalArgumentException("unknown rwsplit hint '" + sql.substring(from, to)
                + "' in SQL comment (allowed: rwsplit:primary, rwsplit:replica)");
    }

    private static int skipBlanks(String sql, int i, int to) {
        while (i < to && sql.charAt(i) <= ' ') {
            i++;
        }
        return i;
    }

    private static String name(SqlHint hint) {
        return hint == SqlHint.PRIMARY ? "primary" : "replica";
    }
}
