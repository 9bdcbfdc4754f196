package io.rwsplit.internal.route;

/** What a statement is, as far as routing cares. */
public enum SqlKind {
    /** {@code SELECT}, {@code WITH ... SELECT}, {@code VALUES}, {@code TABLE}, {@code (SELECT ...)}: may go to a replica. */
    READ,
    /** {@code SELECT ... FOR UPDATE | FOR SHARE | FOR [NO] KEY ... | LOCK IN SHARE MODE}, also inside {@code WITH}. */
    LOCKING_READ,
    /**
     * A read that depends on the primary or on session state: sequence calls ({@code nextval(}, {@code setval(},
     * {@code currval(}, {@code lastval()}), {@code LAST_INSERT_ID()}, {@code FOUND_ROWS()}, {@code ROW_COUNT()}, user
     * locks ({@code GET_LOCK(}, {@code pg_advisory_lock(} and friends), {@code pg_notify(}, {@code set_config(},
     * {@code txid_current()}, {@code pg_current_xact_id()} and {@code SELECT ... INTO}.
     */
    PRIMARY_FUNCTION,
    /**
     * {@code INSERT, UPDATE, DELETE, MERGE, REPLACE, UPSERT, LOAD DATA, TRUNCATE, COPY} (also with {@code RETURNING}),
     * {@code WITH ... UPDATE/DELETE/INSERT} and PostgreSQL's writable CTEs {@code WITH x AS (UPDATE ...) SELECT ...}.
     */
    WRITE,
    /**
     * {@code CREATE, ALTER, DROP, RENAME, COMMENT ON, GRANT, REVOKE, ANALYZE/OPTIMIZE/REPAIR TABLE}, PostgreSQL's
     * {@code VACUUM, CLUSTER, REINDEX, REFRESH MATERIALIZED VIEW, IMPORT FOREIGN SCHEMA, SECURITY LABEL}.
     */
    DDL,
    /**
     * {@code CALL}, JDBC {@code {call ...}} and {@code {? = call ...}}, {@code EXEC/EXECUTE}, {@code DO}, MariaDB's
     * {@code BEGIN NOT ATOMIC ... END}.
     */
    CALL,
    /**
     * {@code SET, USE, LOCK/UNLOCK TABLES, START TRANSACTION, BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE, XA,
     * FLUSH, KILL, HANDLER, PREPARE, DEALLOCATE}, PostgreSQL's {@code LOCK TABLE, LISTEN, UNLISTEN, NOTIFY, DISCARD,
     * RESET, CHECKPOINT}.
     */
    SESSION,
    /**
     * {@code SHOW, EXPLAIN, DESCRIBE, HELP, CHECK, CHECKSUM}, MySQL executable comments, several statements in one
     * string, anything unknown or empty: sent to the primary because that is always safe.
     */
    OTHER;

    /**
     * A write by kind, refused in read-only contexts and moving a read-only-by-preference transaction to the primary:
     * a write, a locking read, DDL, a call.
     */
    boolean writeLike() {
        return this == WRITE || this == LOCKING_READ || this == DDL || this == CALL;
    }

    /** {@code true} for every kind except {@link #READ}: the statement must run on the primary. */
    public boolean primaryOnly() {
        return this != READ;
    }

    /**
     * Of this reading of a statement and {@code other} (another lexing of the same text), the one that keeps it on
     * the primary, and of two such the one that does more: an unknown statement, then a write, DDL, a call, a session
     * command, a primary function, a locking read.
     */
    SqlKind stricter(SqlKind other) {
        return rank() >= other.rank() ? this : other;
    }

    private int rank() {
        return switch (this) {
            case READ -> 0;
            case LOCKING_READ -> 1;
            case PRIMARY_FUNCTION -> 2;
            case SESSION -> 3;
            case CALL -> 4;
            case DDL -> 5;
            case WRITE -> 6;
            case OTHER -> 7;
        };
    }
}
