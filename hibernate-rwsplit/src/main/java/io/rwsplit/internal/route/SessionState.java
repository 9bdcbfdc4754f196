package io.rwsplit.internal.route;

import static io.rwsplit.internal.route.SqlText.afterWord;
import static io.rwsplit.internal.route.SqlText.isWord;
import static io.rwsplit.internal.route.SqlText.isWordChar;
import static io.rwsplit.internal.route.SqlText.isWordIn;
import static io.rwsplit.internal.route.SqlText.wordEnd;

/**
 * What a statement does to the server's session, which later statements of the same logical connection may
 * rely on. All of them run on the primary (none is a plain read); then:
 * <ul>
 *   <li>{@link Effect#REPLAYED}: a session setting ({@code SET [SESSION] x = ...}, {@code SET NAMES},
 *       {@code SET time_zone}, {@code SET SESSION TRANSACTION ...}, {@code USE db}; PostgreSQL {@code SET x TO ...},
 *       {@code SET TIME ZONE}, {@code SET ROLE}, {@code SET search_path}, {@code RESET}, {@code DISCARD},
 *       {@code SET SESSION CHARACTERISTICS}, a lone {@code SELECT set_config(..., false)}): replayed, in order, on
 *       every replica connection the logical connection uses, so that replica reads answer as the primary would;</li>
 *   <li>{@link Effect#PINS}: state that cannot be replayed: a user variable ({@code SET @x := 1},
 *       {@code SELECT ... INTO @x}), a temporary table ({@code CREATE [GLOBAL|LOCAL] TEMP[ORARY] ...},
 *       {@code SELECT ... INTO TEMP}), a named lock ({@code GET_LOCK(...)}), a server-side prepared statement
 *       ({@code PREPARE}), a cursor ({@code DECLARE}), {@code LISTEN}, a setting for one transaction only
 *       ({@code SET LOCAL}, {@code SET TRANSACTION}), {@code SET SESSION AUTHORIZATION}, {@code SET autocommit}, {@code set_config} inside a
 *       query, a session command with a {@code ?} parameter: the rest of the logical connection stays on the primary
 *       ({@link io.rwsplit.RouteReason#SESSION_STATE}), as MaxScale does; {@code SET autocommit} to a constant is
 *       also followed by the transaction tracker ({@link Effect#MANUAL_COMMITS}, {@link Effect#AUTO_COMMITS});</li>
 *   <li>{@link Effect#BEGINS}, {@link Effect#COMMITS}, {@link Effect#ROLLS_BACK}: a transaction boundary sent as SQL
 *       ({@code BEGIN [WORK|TRANSACTION]}, {@code START TRANSACTION}, {@code XA START|BEGIN}; {@code COMMIT},
 *       PostgreSQL's {@code END}, {@code XA COMMIT}; {@code ROLLBACK} other than to a savepoint, PostgreSQL's
 *       {@code ABORT}, {@code XA ROLLBACK}), which the transaction tracker follows as it follows
 *       {@code setAutoCommit(false)}, {@code commit()} and {@code rollback()};</li>
 *   <li>{@link Effect#SAVEPOINT}, {@link Effect#ROLLS_BACK_TO_SAVEPOINT}: {@code SAVEPOINT}, {@code RELEASE},
 *       {@code ROLLBACK TO SAVEPOINT}: in a transaction they run where its statements run, as the JDBC savepoint
 *       methods do;</li>
 *   <li>{@link Effect#SEVERAL}: several statements in one string ({@code SET ...; INSERT ...},
 *       {@code BEGIN; UPDATE ...; COMMIT}): pins, and the transaction tracker records writes at every step from then
 *       on, as it cannot follow what they did to the server's transaction;</li>
 *   <li>{@link Effect#NONE}: nothing to follow ({@code SET GLOBAL}, {@code SET PASSWORD}, {@code SET STATEMENT ... FOR},
 *       {@code SET CONSTRAINTS}, everything else).</li>
 * </ul>
 * Decided once per distinct SQL string (the result is cached with its classification); one pass, no regex.
 */
final class SessionState {

    /** What a statement leaves in the session. */
    enum Effect {
        NONE, REPLAYED, PINS, BEGINS, COMMITS, ROLLS_BACK,
        /** {@code COMMIT AND CHAIN}: the transaction commits and a new one begins at once. */
        COMMITS_AND_BEGINS,
        /** {@code ROLLBACK AND CHAIN}. */
        ROLLS_BACK_AND_BEGINS,
        /** {@code LOCK TABLES} / {@code LOCK TABLE}: the rest stays on the primary until the locks are released. */
        LOCKS_TABLES,
        /** {@code UNLOCK TABLES}: the table locks are released. */
        UNLOCKS_TABLES,
        /** A PostgreSQL advisory lock ({@code pg_advisory_lock}, {@code pg_try_advisory_xact_lock}, ...). */
        LOCKS_ADVISORY,
        /** {@code pg_advisory_unlock[_shared|_all]}: the server says whether any lock is still held. */
        UNLOCKS_ADVISORY,
        /**
         * {@code SET autocommit = 0} (MySQL, MariaDB): pins, as {@link #PINS}; from then on every statement runs in a
         * transaction that a {@code COMMIT} ends and the next statement begins again.
         */
        MANUAL_COMMITS,
        /** {@code SET autocommit = 1}: pins, as {@link #PINS}; commits the transaction open in manual-commit mode. */
        AUTO_COMMITS,
        /**
         * {@code SAVEPOINT x}, {@code RELEASE [SAVEPOINT] x}: in a transaction, it runs where the transaction's
         * statements run (a read-only transaction's replica connection), as {@code Connection#setSavepoint} does.
         */
        SAVEPOINT,
        /** {@code ROLLBACK [WORK|TRANSACTION] TO [SAVEPOINT] x}: as {@link #SAVEPOINT}, and the transaction stays open. */
        ROLLS_BACK_TO_SAVEPOINT,
        /**
         * Several statements in one string: pins, as {@link #PINS}, and what they did to the server's transaction
         * (begun, committed, left open) is not followed: the tracker records writes at every step from then on.
         */
        SEVERAL;

        /** Whether it pins the rest of the logical connection to the primary: {@link #PINS}, and the autocommit switches. */
        boolean pins() {
            return this == PINS || this == MANUAL_COMMITS || this == AUTO_COMMITS || this == SEVERAL;
        }
    }

    /** After {@code SET}: server-wide or one-statement changes, replicated or irrelevant to replicas. */
    private static final String[] PRIMARY_ONLY_SET = {"global", "persist", "persist_only", "password", "default",
            "statement", "constraints"};

    /** The values of {@code SET autocommit} that switch it off, and on. */
    private static final String[] MANUAL = {"0", "off", "false"};
    private static final String[] AUTOMATIC = {"1", "on", "true"};

    private static final int USER_VARIABLE = 1;
    private static final int LOCK = 2;
    private static final int PARAMETER = 4;
    private static final int INTO_TEMPORARY = 8;
    private static final int SET_CONFIG = 16;
    private static final int ADVISORY_LOCK = 32;
    private static final int ADVISORY_UNLOCK = 64;

    private SessionState() {
    }

    /** What {@code sql}, classified as {@code kind}, does to the session of the server that runs it, under any lexing. */
    static Effect effect(String sql, SqlKind kind) {
        return effect(sql, kind, Lexing.ANY);
    }

    /** What {@code sql}, classified as {@code kind} under {@code lexing}, does to the session of the server that runs it. */
    static Effect effect(String sql, SqlKind kind, Lexing lexing) {
        if (sql == null || kind == SqlKind.READ || kind == SqlKind.LOCKING_READ) {
            return Effect.NONE;
        }
        String several = severalStatements(sql, lexing);
        if (several != null) {
            return severalEffect(several);
        }
        int start = SqlText.skipSpaceAndComments(sql, 0);
        int end = wordEnd(sql, start);
        if (kind == SqlKind.WRITE) {
            return Effect.NONE;
        }
        Effect boundary = boundary(sql, start, end);
        if (boundary != null) {
            return boundary;
        }
        if ((isWord(sql, start, end, "savepoint") || isWord(sql, start, end, "release")) && !executableComment(sql)) {
            return Effect.SAVEPOINT;
        }
        if (isWord(sql, start, end, "set")) {
            return setEffect(sql, end);
        }
        if (isWord(sql, start, end, "create")) {
            return createsTemporary(sql, end) ? Effect.PINS : Effect.NONE;
        }
        if (isWord(sql, start, end, "prepare") || isWord(sql, start, end, "declare") || isWord(sql, start, end, "listen")) {
            return Effect.PINS;
        }
        if (isWord(sql, start, end, "lock")) {
            return Effect.LOCKS_TABLES;     // what runs under the lock runs where it is held
        }
        if (isWord(sql, start, end, "unlock")) {
            return Effect.UNLOCKS_TABLES;
        }
        if (isWord(sql, start, end, "use") || isWord(sql, start, end, "reset") || isWord(sql, start, end, "discard")) {
            return (scan(sql, end) & (USER_VARIABLE | PARAMETER)) != 0 ? Effect.PINS : Effect.REPLAYED;
        }
        if (kind == SqlKind.PRIMARY_FUNCTION) {
            int found = scan(sql, end);
            if ((found & (USER_VARIABLE | LOCK | INTO_TEMPORARY)) != 0) {
                return Effect.PINS;
            }
            if ((found & SET_CONFIG) != 0) {
                return (found & PARAMETER) == 0 && isLoneSessionSetConfig(sql, start, end) ? Effect.REPLAYED : Effect.PINS;
            }
            if ((found & ADVISORY_LOCK) != 0) {
                return Effect.LOCKS_ADVISORY;
            }
            if ((found & ADVISORY_UNLOCK) != 0) {
                return Effect.UNLOCKS_ADVISORY;
            }
        }
        return Effect.NONE;
    }

    /**
     * {@code sql} as read under {@code lexing} when it holds several statements (itself, or as PostgreSQL reads it,
     * its literals emptied), or null when it is one statement, a compound one included. Under {@link Lexing#ANY} either
     * reading that finds several counts. Runs on a classification cache miss only.
     */
    private static String severalStatements(String sql, Lexing lexing) {
        if (lexing != Lexing.POSTGRESQL && holdsSeveral(sql)) {
            return sql;
        }
        if (lexing != Lexing.MYSQL) {
            String postgres = Readings.mayDiffer(sql) ? Readings.postgres(sql, false) : sql;
            if ((lexing == Lexing.POSTGRESQL || postgres != sql) && holdsSeveral(postgres)) {
                return postgres;
            }
        }
        return null;
    }

    private static boolean holdsSeveral(String text) {
        int start = SqlText.skipSpaceAndComments(text, 0);
        return SqlText.holdsSeveralStatements(text, start) && !compound(text, start, wordEnd(text, start));
    }

    /**
     * What several statements in one string ({@code text}, as read) do together: {@link Effect#SEVERAL} when one of
     * them begins, ends or chains a transaction, or switches autocommit (the tracker cannot follow them one by one);
     * {@link Effect#REPLAYED} when each is a session setting replicas replay ({@code SET NAMES ...; SET time_zone
     * ...}); else {@link Effect#PINS}.
     */
    private static Effect severalEffect(String text) {
        boolean replayed = true;
        for (String one : SqlText.statements(text, SqlText.skipSpaceAndComments(text, 0))) {
            Effect effect = effect(one, SqlClassifier.classifyOneReading(one), Lexing.MYSQL);
            switch (effect) {
                case BEGINS, COMMITS, ROLLS_BACK, COMMITS_AND_BEGINS, ROLLS_BACK_AND_BEGINS, MANUAL_COMMITS,
                     AUTO_COMMITS -> {
                    return Effect.SEVERAL;
                }
                default -> replayed &= effect == Effect.REPLAYED;
            }
        }
        return replayed ? Effect.REPLAYED : Effect.PINS;
    }

    /**
     * Whether the statement starting with the word {@code sql[start, end)} may hold {@code ;} in a body of its own:
     * {@code CREATE} of a procedure, function, trigger, event, package or rule, {@code DO}, MariaDB's
     * {@code BEGIN NOT ATOMIC}.
     */
    private static boolean compound(String sql, int start, int end) {
        return isWord(sql, start, end, "create") && createsRoutine(sql, end) || isWord(sql, start, end, "do")
                || isWord(sql, start, end, "begin") && afterWord(sql, end, "not") >= 0;
    }

    /** Whether {@code sql} holds a MySQL or MariaDB executable comment, whose content the server runs. */
    private static boolean executableComment(String sql) {
        return sql.contains("/*!") || sql.contains("/*M!");
    }

    /** The objects whose {@code CREATE} may hold a body of statements. */
    private static final String[] ROUTINE_WORDS = {"procedure", "function", "trigger", "event", "package", "rule"};

    /**
     * Whether the {@code CREATE} ending at {@code i} makes a routine: one of {@link #ROUTINE_WORDS} among its first
     * words ({@code OR REPLACE}, {@code DEFINER = `u`@`h`}, {@code AGGREGATE}, {@code CONSTRAINT} may come first).
     */
    private static boolean createsRoutine(String sql, int i) {
        int n = sql.length();
        for (int token = 0; token < 10; token++) {
            i = SqlText.skipSpaceAndComments(sql, i);
            if (i >= n) {
                return false;
            }
            char c = sql.charAt(i);
            if (SqlText.isQuote(c)) {
                i = SqlText.skipQuoted(sql, i);
                if (i == SqlText.UNTERMINATED) {
                    return false;
                }
                continue;
            }
            if (c == '=' || c == '@' || c == '.') {
                i++;
                continue;
            }
            int end = wordEnd(sql, i);
            if (end == i) {
                return false;
            }
            if (isWordIn(sql, i, end, ROUTINE_WORDS)) {
                return true;
            }
            i = end;
        }
        return false;
    }

    /**
     * The transaction boundary the statement starting with the word {@code sql[start, end)} is (or a rollback to a
     * savepoint, which is none), or null.
     */
    private static Effect boundary(String sql, int start, int end) {
        if (isWord(sql, start, end, "begin")) {
            // MariaDB's BEGIN NOT ATOMIC opens a compound statement, not a transaction
            return afterWord(sql, end, "not") >= 0 ? null : Effect.BEGINS;
        }
        if (isWord(sql, start, end, "start")) {
            return afterWord(sql, end, "transaction") >= 0 ? Effect.BEGINS : null;
        }
        if (isWord(sql, start, end, "commit") || isWord(sql, start, end, "end")) {
            return chains(sql, end) ? Effect.COMMITS_AND_BEGINS : Effect.COMMITS;
        }
        if (isWord(sql, start, end, "rollback") || isWord(sql, start, end, "abort")) {
            int next = SqlText.skipSpaceAndComments(sql, end);
            int nextEnd = wordEnd(sql, next);
            if (isWord(sql, next, nextEnd, "work") || isWord(sql, next, nextEnd, "transaction")) {
                next = SqlText.skipSpaceAndComments(sql, nextEnd);
                nextEnd = wordEnd(sql, next);
            }
            if (isWord(sql, next, nextEnd, "to")) {
                // still in it; one carrying more than its savepoint's name runs on the primary, as before
                return executableComment(sql) ? Effect.NONE : Effect.ROLLS_BACK_TO_SAVEPOINT;
            }
            return chains(sql, end) ? Effect.ROLLS_BACK_AND_BEGINS : Effect.ROLLS_BACK;
        }
        if (isWord(sql, start, end, "xa")) {
            int verb = SqlText.skipSpaceAndComments(sql, end);
            int verbEnd = wordEnd(sql, verb);
            if (isWord(sql, verb, verbEnd, "start") || isWord(sql, verb, verbEnd, "begin")) {
                return Effect.BEGINS;
            }
            if (isWord(sql, verb, verbEnd, "commit")) {
                return Effect.COMMITS;
            }
            return isWord(sql, verb, verbEnd, "rollback") ? Effect.ROLLS_BACK : null;
        }
        return null;
    }

    /** Whether {@code [WORK | TRANSACTION] AND CHAIN} follows {@code afterVerb} ({@code AND NO CHAIN} does not chain). */
    private static boolean chains(String sql, int afterVerb) {
        int i = SqlText.skipSpaceAndComments(sql, afterVerb);
        int e = wordEnd(sql, i);
        if (isWord(sql, i, e, "work") || isWord(sql, i, e, "transaction")) {
            i = SqlText.skipSpaceAndComments(sql, e);
            e = wordEnd(sql, i);
        }
        if (!isWord(sql, i, e, "and")) {
            return false;
        }
        i = SqlText.skipSpaceAndComments(sql, e);
        return isWord(sql, i, wordEnd(sql, i), "chain");
    }

    private static Effect setEffect(String sql, int afterSet) {
        if ((scan(sql, afterSet) & (USER_VARIABLE | LOCK | ADVISORY_LOCK | PARAMETER)) != 0) {
            return Effect.PINS;
        }
        int start = SqlText.skipSpaceAndComments(sql, afterSet);
        if (sql.regionMatches(true, start, "@@global.", 0, 9)) {
            return Effect.NONE;
        }
        int end = wordEnd(sql, start);
        if (isWordIn(sql, start, end, PRIMARY_ONLY_SET)) {
            return Effect.NONE;
        }
        Effect autocommit = autocommitAssigned(sql, start);
        if (autocommit != null) {
            return autocommit;
        }
        if (isWord(sql, start, end, "local") || isWord(sql, start, end, "transaction")) {
            return Effect.PINS;     // for one transaction only (MySQL's SET LOCAL is SESSION, but pinning is safe)
        }
        if (isWord(sql, start, end, "session") && afterWord(sql, end, "authorization") >= 0) {
            return Effect.PINS;
        }
        return Effect.REPLAYED;
    }

    /**
     * What a {@code SET} list that assigns {@code autocommit} (at {@code i}, the first assignment; in any of them, as
     * in {@code SET NAMES utf8mb4, autocommit = 0}) does, or null when none does: a replica connection left in a
     * transaction would keep reading one old snapshot, so it is never replayed.
     */
    private static Effect autocommitAssigned(String sql, int i) {
        int n = sql.length();
        while (true) {
            i = SqlText.skipSpaceAndComments(sql, i);
            int word = wordEnd(sql, i);
            if (isWord(sql, i, word, "session") || isWord(sql, i, word, "local")) {
                i = SqlText.skipSpaceAndComments(sql, word);   // MySQL's LOCAL is SESSION
            }
            int name = autocommitEnd(sql, i);
            if (name >= 0) {
                return autocommitSwitch(sql, name);
            }
            int depth = 0;   // on to the next assignment of the list: the comma outside quotes and parentheses
            while (i < n && !(depth == 0 && sql.charAt(i) == ',')) {
                char c = sql.charAt(i);
                if (c == ';') {
                    return null;
                }
                if (SqlText.isQuote(c)) {
                    i = SqlText.skipQuoted(sql, i);
                    if (i == SqlText.UNTERMINATED) {
                        return null;
                    }
                    continue;
                }
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
                i++;
            }
            if (i >= n) {
                return null;
            }
            i++;
        }
    }

    /**
     * The value set after {@code autocommit} (its name ends at {@code i}), quoted or not: {@code 0}, {@code off} or
     * {@code false} switches to manual commits, {@code 1}, {@code on} or {@code true} back to autocommit; any other
     * ({@code DEFAULT}, the global value; an expression) only pins. A statement may follow only as another assignment
     * of the list: after a {@code ;}, the rest of a multi-statement string is the server's to run.
     */
    private static Effect autocommitSwitch(String sql, int i) {
        i = SqlText.skipSpaceAndComments(sql, i);
        if (sql.startsWith(":=", i)) {
            i += 2;
        }
        else if (sql.startsWith("=", i)) {
            i += 1;
        }
        else if (isWord(sql, i, wordEnd(sql, i), "to")) {
            i = wordEnd(sql, i);
        }
        else {
            return Effect.PINS;
        }
        int start = SqlText.skipSpaceAndComments(sql, i);
        boolean quoted = start < sql.length() && (sql.charAt(start) == '\'' || sql.charAt(start) == '"');
        int valueStart = quoted ? start + 1 : start;
        int end = wordEnd(sql, valueStart);
        if (quoted) {
            if (end >= sql.length() || sql.charAt(end) != sql.charAt(start)) {
                return Effect.PINS;
            }
            end++;
        }
        int after = SqlText.skipSpaceAndComments(sql, end);
        if (after < sql.length() && sql.charAt(after) == ';') {
            after = SqlText.skipSpaceAndComments(sql, after + 1);
            if (after < sql.length()) {
                return Effect.PINS;   // another statement follows: only pins, as before
            }
        }
        else if (after < sql.length() && sql.charAt(after) != ',') {
            return Effect.PINS;   // an expression: its value is the server's to know
        }
        int valueEnd = quoted ? end - 1 : end;
        if (isWordIn(sql, valueStart, valueEnd, MANUAL)) {
            return Effect.MANUAL_COMMITS;
        }
        return isWordIn(sql, valueStart, valueEnd, AUTOMATIC) ? Effect.AUTO_COMMITS : Effect.PINS;
    }

    /**
     * Where {@code autocommit}, {@code @@autocommit} or {@code @@session.autocommit} at {@code i} ends, or -1: a
     * replica connection left in a transaction would keep reading one old snapshot, so it is never replayed.
     */
    private static int autocommitEnd(String sql, int i) {
        if (sql.startsWith("@@", i)) {
            i += 2;
            int scope = wordEnd(sql, i);
            if (scope < sql.length() && sql.charAt(scope) == '.') {
                i = scope + 1;
            }
        }
        int end = wordEnd(sql, i);
        return isWord(sql, i, end, "autocommit") ? end : -1;
    }

    /** {@code CREATE [OR REPLACE] [GLOBAL | LOCAL] TEMP | TEMPORARY ...}. */
    private static boolean createsTemporary(String sql, int afterCreate) {
        int i = afterWord(sql, afterWord(sql, afterCreate, "or"), "replace");
        i = i >= 0 ? i : afterCreate;
        int scope = Math.max(afterWord(sql, i, "global"), afterWord(sql, i, "local"));
        i = scope >= 0 ? scope : i;
        return afterWord(sql, i, "temporary") >= 0 || afterWord(sql, i, "temp") >= 0;
    }

    /**
     * {@code SELECT set_config(name, value, false)} and nothing else: the whole statement sets one session setting
     * (a {@code set_config} inside a larger query, or with {@code true}, for the transaction, is not replayed).
     */
    private static boolean isLoneSessionSetConfig(String sql, int start, int end) {
        if (!isWord(sql, start, end, "select")) {
            return false;
        }
        int name = SqlText.skipSpaceAndComments(sql, end);
        int nameEnd = wordEnd(sql, name);
        if (!isWord(sql, name, nameEnd, "set_config")) {
            return false;
        }
        int open = SqlText.skipSpaceAndComments(sql, nameEnd);
        if (open == sql.length() || sql.charAt(open) != '(') {
            return false;
        }
        int n = sql.length();
        int depth = 0;
        int lastComma = -1;
        int i = open;
        while (i < n) {
            char c = sql.charAt(i);
            if (SqlText.isQuote(c)) {
                i = SqlText.skipQuoted(sql, i);
                if (i == SqlText.UNTERMINATED) {
                    return false;
                }
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                break;
            } else if (c == ',' && depth == 1) {
                lastComma = i;
            }
            i++;
        }
        if (i == n || lastComma < 0 || afterWord(sql, lastComma + 1, "false") < 0
                || SqlText.nextSignificantChar(sql, afterWord(sql, lastComma + 1, "false")) != ')') {
            return false;
        }
        int after = SqlText.skipSpaceAndComments(sql, i + 1);
        if (after < n && sql.charAt(after) == ';') {
            after = SqlText.skipSpaceAndComments(sql, after + 1);
        }
        return after == n;
    }

    /**
     * The lock function {@code sql[start, end)}: {@code GET_LOCK} pins (the server cannot tell routing which named
     * locks a session holds), a PostgreSQL advisory lock or unlock is asked about once released.
     */
    private static int lockKind(String sql, int start, int end) {
        return SqlClassifier.isAdvisoryUnlock(sql, start, end) ? ADVISORY_UNLOCK
                : isWord(sql, start, end, "get_lock") ? LOCK : ADVISORY_LOCK;
    }

    /**
     * One pass outside literals and comments: a user variable ({@code @name}, not a system variable
     * {@code @@name}), {@code GET_LOCK(}, a {@code ?} parameter, {@code INTO TEMP[ORARY]}, {@code set_config(}.
     */
    private static int scan(String sql, int i) {
        int found = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '@') {
                if (i + 1 < n && sql.charAt(i + 1) == '@') {
                    i = wordEnd(sql, i + 2);     // @@system_variable
                    continue;
                }
                if (i + 1 < n && (isWordChar(sql.charAt(i + 1)) || SqlText.isQuote(sql.charAt(i + 1)))) {
                    found |= USER_VARIABLE;
                }
                i++;
            } else if (isWordChar(c)) {
                int end = wordEnd(sql, i);
                if (SqlText.nextSignificantChar(sql, end) == '(' && (SqlClassifier.takesLock(sql, i, end)
                        || SqlClassifier.isAdvisoryUnlock(sql, i, end))) {
                    found |= lockKind(sql, i, end);
                } else if (isWord(sql, i, end, "set_config") && SqlText.nextSignificantChar(sql, end) == '(') {
                    found |= SET_CONFIG;
                } else if (isWord(sql, i, end, "into") && (afterWord(sql, end, "temp") >= 0
                        || afterWord(sql, end, "temporary") >= 0 || afterWord(sql, end, "local") >= 0)) {
                    found |= INTO_TEMPORARY;
                }
                i = end;
            } else if (c == '?') {
                found |= PARAMETER;
                i++;
            } else if (SqlText.isQuote(c)) {
                int close = SqlText.skipQuoted(sql, i);
                if (close == SqlText.UNTERMINATED) {
                    return found | PARAMETER;     // cannot be replayed as written: pin
                }
                if (c != '\'' && close - i > 2 && SqlText.nextSignificantChar(sql, close) == '('
                        && (SqlClassifier.takesLock(sql, i + 1, close - 1)
                        || SqlClassifier.isAdvisoryUnlock(sql, i + 1, close - 1))) {
                    found |= lockKind(sql, i + 1, close - 1);    // "pg_advisory_lock"(1)
                }
                i = close;
            } else if (c == '/' && SqlText.isBlockCommentStart(sql, i) && !SqlText.isExecutableComment(sql, i)) {
                i = SqlText.blockCommentEnd(sql, i);
            } else if ((c == '-' || c == '#') && SqlText.isLineCommentStart(sql, i)) {
                i = SqlText.lineCommentEnd(sql, i);
            } else {
                i++;
            }
        }
        return found;
    }
}
