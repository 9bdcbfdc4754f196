package io.rwsplit;

/**
 * Why a statement went where it went. Every routing decision carries exactly one reason; statistics,
 * metrics and debug logs are keyed by it. The rules that produce them are applied in the order below
 * (see README, "How routing decides").
 */
public enum RouteReason {
    /** INSERT, UPDATE, DELETE, MERGE, REPLACE, UPSERT, LOAD DATA, TRUNCATE. */
    WRITE(Target.PRIMARY),
    /** SELECT ... FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE. */
    LOCKING_READ(Target.PRIMARY),
    /** DDL, CALL, SET, SHOW, sequence calls, LAST_INSERT_ID(), GET_LOCK() and anything not known to be a plain read. */
    PRIMARY_ONLY_STATEMENT(Target.PRIMARY),
    /**
     * Any statement of a logical connection after one that left state in the primary's session that cannot be
     * replayed on a replica (a user variable, a temporary table, a named lock, a prepared statement, a cursor,
     * {@code LISTEN}, a transaction-local setting), or whose session commands could not be replayed on a
     * replica: it stays with that state.
     */
    SESSION_STATE(Target.PRIMARY),
    /**
     * A statement that changes a session setting ({@code SET time_zone}, {@code SET NAMES}, PostgreSQL's
     * {@code SET search_path}, ...): it runs on the primary and is replayed on every replica connection the
     * logical connection uses, so that replica reads answer under the same settings.
     */
    SESSION_COMMAND(Target.PRIMARY),
    /** Any statement while the session flushes. */
    FLUSH(Target.PRIMARY),
    /** Any statement of a transaction that was not declared read-only. */
    WRITE_TRANSACTION(Target.PRIMARY),
    /** {@code RwSplit.onPrimary(...)} or a {@code /* rwsplit:primary *&#47;} comment. */
    PRIMARY_HINT(Target.PRIMARY),
    /** Consistency level STRONG. */
    STRONG_CONSISTENCY(Target.PRIMARY),
    /**
     * A read a rule by query shape ({@code hibernate.rwsplit.rule.NAME.route=primary}) sends to the primary: an
     * autocommit read or a read of a read-only transaction that could have gone to a replica.
     */
    SHAPE_RULE_PRIMARY(Target.PRIMARY),
    /**
     * READ_YOUR_WRITES of a named scope (or of the session, with {@code consistency_scope=session}) in time
     * mode: the scope wrote recently (or its writes could not be read from the store), so it reads from the primary.
     */
    READ_YOUR_WRITES_PRIMARY(Target.PRIMARY),
    /** READ_YOUR_WRITES of a named scope in GTID mode: the replica waited the full timeout without applying the scope's last write. */
    CAUSAL_TIMEOUT_PRIMARY(Target.PRIMARY),
    /**
     * READ_YOUR_WRITES of a named scope in GTID mode: no replica has applied the scope's last write and none can
     * within {@code causal_wait_timeout} (measured lag, a recent timeout, or waiting disabled), so no wait.
     */
    CAUSAL_BEHIND_PRIMARY(Target.PRIMARY),
    /**
     * READ_YOUR_WRITES of the persistence unit (the default scope) in time mode: the unit wrote within the
     * window (or its position could not be read from the shared store), so the read goes to the primary.
     */
    UNIT_READ_YOUR_WRITES_PRIMARY(Target.PRIMARY),
    /** READ_YOUR_WRITES of the unit in GTID mode: the replica waited the full timeout without applying the unit's last write. */
    UNIT_CAUSAL_TIMEOUT_PRIMARY(Target.PRIMARY),
    /**
     * READ_YOUR_WRITES of the unit in GTID mode: no replica has applied the unit's last write and none can within
     * {@code causal_wait_timeout} (measured lag, a recent timeout, or waiting disabled), so no wait.
     */
    UNIT_CAUSAL_BEHIND_PRIMARY(Target.PRIMARY),
    /** BOUNDED_STALENESS: no replica is within the bound. */
    STALENESS_BOUND_PRIMARY(Target.PRIMARY),
    /**
     * READ_YOUR_WRITES with a requirement that cannot be trusted: a consistency cookie another key signed (another
     * instance without the shared secret) or someone tampered with, a token whose signature does not verify, or an
     * unsigned token from the future, older than the store keeps scopes, or beyond any position the cluster reported.
     * The write it stands for is unknown: the primary has it.
     */
    UNTRUSTED_TOKEN_PRIMARY(Target.PRIMARY),
    /** A replica was wanted but none is healthy (or none is configured). */
    NO_HEALTHY_REPLICA(Target.PRIMARY),
    /**
     * A replica was wanted, but the pool of every replica tried could not lend a connection within its connection
     * timeout (they were all busy, none failed): the primary served the read. The replicas stay in rotation.
     */
    REPLICA_POOL_EXHAUSTED_PRIMARY(Target.PRIMARY),
    /** An autocommit read failed before returning results (its replica broke, or the primary went away in a failover) and was retried on the primary. */
    RETRY_PRIMARY(Target.PRIMARY),
    /**
     * An autocommit statement taken for a read was refused by a read-only replica (SQLState 25006, such as a
     * PostgreSQL standby's "cannot execute ... in a read-only transaction" for a function that writes) and was run
     * once more, on the primary. Mark such SQL {@code rwsplit:primary} to save the round trip.
     */
    REPLICA_REFUSED_WRITE(Target.PRIMARY),

    /** A read in a read-only transaction (or read-only session), pinned to one replica for the transaction. */
    READ_ONLY_TRANSACTION(Target.REPLICA),
    /** {@code RwSplit.onReplica(...)}, {@code @ReadReplica} or a {@code /* rwsplit:replica *&#47;} comment. */
    REPLICA_HINT(Target.REPLICA),
    /** A plain read outside a transaction. */
    REPLICA_READ(Target.REPLICA),
    /** READ_YOUR_WRITES of a named scope in GTID mode: the chosen replica had already applied the scope's last write. */
    CAUSAL_REPLICA_CAUGHT_UP(Target.REPLICA),
    /** READ_YOUR_WRITES of a named scope in GTID mode: the replica was made to wait until it applied the scope's last write. */
    CAUSAL_WAIT(Target.REPLICA),
    /** READ_YOUR_WRITES of the unit (the default scope) in GTID mode: the replica had already applied the unit's last write. */
    UNIT_CAUSAL_REPLICA_CAUGHT_UP(Target.REPLICA),
    /** READ_YOUR_WRITES of the unit in GTID mode: the replica was made to wait until it applied the unit's last write. */
    UNIT_CAUSAL_WAIT(Target.REPLICA),
    /** BOUNDED_STALENESS: a replica within the staleness bound. */
    BOUNDED_STALENESS_REPLICA(Target.REPLICA),
    /**
     * A plain read (or a hinted one, or the first read of a read-only transaction) whose first replica's pool could
     * not lend a connection within its connection timeout: another replica served it. The busy replica stays in rotation.
     */
    REPLICA_POOL_EXHAUSTED_REPLICA(Target.REPLICA),
    /** An autocommit read failed before returning results (its replica broke, or the primary went away in a failover) and was retried on a replica. */
    RETRY_REPLICA(Target.REPLICA);

    private final Target target;

    RouteReason(Target target) {
        this.target = target;
    }

    /** The target every decision with this reason has. */
    public Target target() {
        return target;
    }
}
