package io.rwsplit.route;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

import io.rwsplit.Consistency;
import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.consistency.CausalReads;
import io.rwsplit.consistency.CausalReasons;
import io.rwsplit.consistency.ConsistencyToken;
import io.rwsplit.consistency.GtidPosition;
import io.rwsplit.consistency.SessionConsistency;

/**
 * The connection Hibernate sees. It opens no physical connection until a statement is prepared; then
 * it classifies the SQL, decides (see {@link #decide}) and prepares the statement on the primary or on a
 * replica. Within one logical connection the primary connection and the replica connection are each
 * opened at most once and reused. Transaction boundaries ({@code setAutoCommit}, {@code commit},
 * {@code rollback}) are applied to every physical connection the transaction touched.
 * <p>
 * Used by one thread at a time, like any JDBC connection handed to a Hibernate session.
 */
public final class RoutingConnection implements Connection {

    /** The kind of the current transaction, decided at its first statement. */
    private enum Tx {
        /** Autocommit: no transaction. */
        NONE,
        /** Begun, no statement yet. */
        PENDING,
        /** Not declared read-only: primary from its first statement. */
        READ_WRITE,
        /** Declared read-only through JDBC (Connection#setReadOnly, read-only session): writes fail. */
        READ_ONLY_STRICT,
        /** Read-only by preference (default read-only session, onReplica): a write moves the rest to the primary. */
        READ_ONLY_PREFERRED
    }

    private final Router router;
    private final SessionRouting session;
    private final boolean readOnlySession;

    private Connection primary;
    private Connection replica;
    private ReplicaNode replicaNode;
    /** Why the replica connection was last chosen (decides where a failed read may be retried). */
    private RouteReason replicaReason;

    private boolean closed;
    private boolean autoCommit = true;
    private boolean readOnly;
    private Tx tx = Tx.NONE;
    private boolean softReadOnlyAtBegin;
    private boolean replicaUnavailableInTx;
    /** The JTA (or other external) transaction the last statement ran in, {@code null} outside one. */
    private Object externalTx;
    /** The primary connection ran a statement that may have written, not yet recorded for read-your-writes. */
    private boolean wrote;
    /** Whether the consistency level was applied at the current read-only transaction's first read. */
    private boolean txConsistencyChecked;
    /** Why the current read-only transaction reads from the primary (its consistency level said so), or null. */
    private RouteReason txPrimaryReason;
    private final Runnable recordPending = () -> {
        if (wrote && autoCommit && externalTx == null && !closed) {
            recordWrite();
        }
    };
    private int isolation = -1;
    private String catalog;
    private String schema;
    private int holdability = -1;

    RoutingConnection(Router router, SessionRouting session, boolean readOnlySession) {
        this.router = router;
        this.session = session;
        this.readOnlySession = readOnlySession;
        this.readOnly = false;
    }

    /** The session this connection routes for. */
    public SessionRouting session() {
        return session;
    }

    public Router router() {
        return router;
    }

    // ------------------------------------------------------------------ routing

    /** Decides where {@code sql} goes, opens that connection if needed, records the decision. */
    private Connection route(String sql) throws SQLException {
        checkOpen();
        if (autoCommit) {
            followExternalTransaction();
        }
        if (wrote && autoCommit && externalTx == null) {
            recordWrite();
        }
        ClassificationCache.Entry classified;
        try {
            classified = router.classifications().classify(sql);
        }
        catch (IllegalArgumentException e) {
            throw new SQLException("hibernate-rwsplit: " + e.getMessage(), "42000", e);
        }
        SqlKind kind = classified.kind();
        SqlHint hint = classified.hint();
        RouteReason reason = decide(kind, hint, sql);
        return connect(reason, sql);
    }

    /**
     * The routing rules, in order; the first that applies decides.
     * <ol>
     *   <li>statements that must run on the primary (writes, locks, DDL, CALL, SET, sequences...)</li>
     *   <li>anything while the session flushes</li>
     *   <li>a transaction not declared read-only: primary from its first statement</li>
     *   <li>an explicit primary intent (API or SQL comment)</li>
     *   <li>a read-only transaction: one replica for the whole transaction</li>
     *   <li>an explicit replica intent, then any other autocommit read: a replica</li>
     * </ol>
     */
    private RouteReason decide(SqlKind kind, SqlHint hint, String sql) throws SQLException {
        if (tx == Tx.PENDING) {
            beginTransaction();
        }
        if (kind.primaryOnly()) {
            RouteReason reason = kind == SqlKind.WRITE ? RouteReason.WRITE
                    : kind == SqlKind.LOCKING_READ ? RouteReason.LOCKING_READ
                    : RouteReason.PRIMARY_ONLY_STATEMENT;
            if (reason != RouteReason.PRIMARY_ONLY_STATEMENT || kind == SqlKind.DDL || kind == SqlKind.CALL) {
                if (tx == Tx.READ_ONLY_STRICT || (tx == Tx.NONE && (readOnly || readOnlySession))) {
                    throw new SQLException("hibernate-rwsplit: " + kind + " statement refused in a read-only "
                            + (tx == Tx.NONE ? "connection" : "transaction")
                            + " (Connection#setReadOnly(true) or a read-only session); it would never be sent to a replica: "
                            + abbreviate(sql), "25006");
                }
                if (tx == Tx.READ_ONLY_PREFERRED) {
                    tx = Tx.READ_WRITE;
                }
            }
            if (kind == SqlKind.WRITE || kind == SqlKind.DDL || kind == SqlKind.CALL || kind == SqlKind.OTHER) {
                wrote();
            }
            return reason;
        }
        if (session.flushing()) {
            return RouteReason.FLUSH;
        }
        if (tx == Tx.READ_WRITE) {
            return RouteReason.WRITE_TRANSACTION;
        }
        if (hint == SqlHint.PRIMARY || session.intent() == Intent.PRIMARY) {
            return RouteReason.PRIMARY_HINT;
        }
        if (tx != Tx.NONE) {
            if (!txConsistencyChecked) {
                txConsistencyChecked = true;
                RouteReason reason = consistentRead(RouteReason.READ_ONLY_TRANSACTION, true);
                txPrimaryReason = reason.target() == io.rwsplit.Target.PRIMARY ? reason : null;
                return reason;
            }
            return txPrimaryReason != null ? txPrimaryReason : RouteReason.READ_ONLY_TRANSACTION;
        }
        if (hint == SqlHint.REPLICA || session.intent() == Intent.REPLICA) {
            return consistentRead(RouteReason.REPLICA_HINT, false);
        }
        return consistentRead(RouteReason.REPLICA_READ, false);
    }

    /**
     * The session's consistency level applied to a read that may go to a replica (an autocommit read, a
     * replica hint, the first read of a read-only transaction): {@code replicaReason} when any replica will do,
     * a causal replica reason (the replica connection is then open and has applied the scope's last write), or
     * a primary reason. Cheap when the scope has no write to honour: a field read and a null check.
     */
    private RouteReason consistentRead(RouteReason replicaReason, boolean inTransaction) throws SQLException {
        SessionConsistency consistency = session.consistency();
        if (consistency == null) {
            return replicaReason;
        }
        Consistency level = session.consistencyLevel();
        switch (level.level()) {
            case EVENTUAL:
                return replicaReason;
            case STRONG:
                return RouteReason.STRONG_CONSISTENCY;
            case BOUNDED_STALENESS:
                return boundedStalenessRead(level.boundMicros(), inTransaction);
            default:
                break;
        }
        ConsistencyToken need = consistency.requirement();
        CausalReasons reasons = consistency.reasons();
        if (consistency.stateUnknown()) {
            return reasons.windowPrimary();
        }
        if (need == null) {
            return replicaReason;
        }
        CausalReads causal = router.causal();
        if (!causal.byGtid(need)) {
            if (causal.withinWindow(need)) {
                return reasons.windowPrimary();
            }
            consistency.settled(need);
            return replicaReason;
        }
        GtidPosition position = need.positionOrNull();
        if (replica == null) {
            ReplicaSet set = router.replicas();
            ReplicaNode chosen = set.choose();
            if (chosen == null) {
                return replicaReason; // no healthy replica: connect() falls back as for any read
            }
            if (!causal.applied(chosen.index(), position)) {
                for (ReplicaNode node : set.nodes()) {
                    if (node != chosen && set.isUp(node) && causal.applied(node.index(), position) && open(node) != null) {
                        return reasons.caughtUp();
                    }
                }
                chosen = CatchUp.replicaThatCanCatchUp(set, chosen, causal, need);
                if (chosen == null) {
                    return reasons.behind(); // no replica can apply it within the timeout: no wait
                }
            }
            if (open(chosen) == null && replica(inTransaction) == null) {
                return replicaReason;
            }
        }
        if (causal.applied(replicaNode.index(), position)) {
            return reasons.caughtUp();
        }
        if (!causal.canCatchUp(replicaNode.index(), replicaNode.lagMicros(), need)) {
            return reasons.behind();
        }
        return causal.await(replica, replicaNode.index(), need) ? reasons.waited() : reasons.timedOut();
    }

    /** A replica whose last measured lag is within the bound, else the primary. */
    private RouteReason boundedStalenessRead(long boundMicros, boolean inTransaction) throws SQLException {
        if (replica == null) {
            ReplicaSet set = router.replicas();
            ReplicaNode chosen = set.choose();
            if (chosen == null) {
                return RouteReason.BOUNDED_STALENESS_REPLICA; // no healthy replica: connect() falls back
            }
            if (chosen.lagMicros() > boundMicros) {
                chosen = null;
                for (ReplicaNode node : set.nodes()) {
                    if (set.isUp(node) && node.lagMicros() <= boundMicros) {
                        chosen = node;
                        break;
                    }
                }
                if (chosen == null) {
                    return RouteReason.STALENESS_BOUND_PRIMARY;
                }
            }
            if (open(chosen) == null && replica(inTransaction) == null) {
                return RouteReason.BOUNDED_STALENESS_REPLICA;
            }
        }
        return replicaNode.lagMicros() <= boundMicros ? RouteReason.BOUNDED_STALENESS_REPLICA
                : RouteReason.STALENESS_BOUND_PRIMARY;
    }

    /** A statement that may write was routed to the primary. */
    private void wrote() {
        wrote = true;
        if (autoCommit && externalTx == null && session.consistency() != null) {
            // it commits when it runs; recorded before the next statement, or earlier if the session asks (token)
            session.consistency().pendingWrite(recordPending);
        }
    }

    /** Records the write(s) the primary connection committed, for read-your-writes of the session's scope. */
    private void recordWrite() {
        wrote = false;
        SessionConsistency consistency = session.consistency();
        if (consistency != null) {
            consistency.pendingWrite(null);
            if (primary != null) {
                consistency.committed(captureCommit());
            }
        }
    }

    /**
     * The token of what the primary connection committed: read on that connection, or, when the pool has
     * already taken it back (a JTA pool does so when the transaction completes), on a fresh one.
     */
    private ConsistencyToken captureCommit() {
        try {
            if (!primary.isClosed()) {
                return router.causal().capture(primary);
            }
            Connection other = router.primary().acquire();
            try {
                return router.causal().captureElsewhere(other);
            }
            finally {
                router.primary().release(other);
            }
        }
        catch (SQLException e) {
            return router.causal().capture(primary); // reports the failure once and falls back to the time window
        }
    }

    /**
     * JTA transactions never call {@code setAutoCommit}: their boundaries come from the router's
     * {@link io.rwsplit.spi.TransactionStatus}. A new external transaction begins like a JDBC one (its
     * first statement decides its kind); leaving it returns to autocommit routing. Its writes are
     * recorded for read-your-writes once it is over (seen here, or when the connection is closed after
     * the transaction completed, which is when Hibernate releases a JTA session's connection).
     */
    private void followExternalTransaction() {
        Object current = router.transactionStatus().currentTransaction();
        if (current == null ? externalTx == null : current.equals(externalTx)) {
            return;
        }
        if (wrote && externalTx != null) {
            recordWrite();
        }
        externalTx = current;
        if (current == null) {
            tx = Tx.NONE;
        }
        else {
            tx = Tx.PENDING;
            softReadOnlyAtBegin = session.intent() == Intent.REPLICA || session.defaultReadOnly();
            replicaUnavailableInTx = false;
            txConsistencyChecked = false;
        }
    }

    /** The first statement of a transaction decides its kind. */
    private void beginTransaction() {
        if (readOnly || readOnlySession) {
            tx = Tx.READ_ONLY_STRICT;
        }
        else if (softReadOnlyAtBegin) {
            tx = Tx.READ_ONLY_PREFERRED;
        }
        else {
            tx = Tx.READ_WRITE;
        }
    }

    private Connection connect(RouteReason reason, String sql) throws SQLException {
        if (reason.target() == io.rwsplit.Target.PRIMARY) {
            router.record(session, router.primaryDecision(reason), -1, sql);
            session.servedByPrimary();
            return primary();
        }
        Connection c = replica(tx != Tx.NONE);
        if (c == null) {
            RouteDecision fallback = router.noReplica(sql);
            router.record(session, fallback, -1, sql);
            session.servedByPrimary();
            return primary();
        }
        router.record(session, replicaNode.decision(reason), replicaNode.index(), sql);
        session.servedByReplica();
        replicaReason = reason;
        return c;
    }

    private Connection primary() throws SQLException {
        Connection c = primary;
        if (c == null) {
            if (autoCommit) {
                followExternalTransaction();
            }
            c = router.primary().acquire();
            try {
                // a connection enlisted in a JTA transaction keeps the autocommit its transaction manager gave it
                if (externalTx == null && c.getAutoCommit() != autoCommit) {
                    c.setAutoCommit(autoCommit);
                }
                applySessionState(c);
            }
            catch (SQLException | RuntimeException e) {
                router.primary().release(c);
                throw e;
            }
            primary = c;
        }
        return c;
    }

    /** The open replica connection, or a new one from the balancer; null when no replica can serve. */
    private Connection replica(boolean inTransaction) throws SQLException {
        if (replica != null) {
            return replica;
        }
        if (inTransaction && replicaUnavailableInTx) {
            return null;
        }
        ReplicaSet set = router.replicas();
        for (int attempt = 0; attempt < set.nodes().size(); attempt++) {
            ReplicaNode node = set.choose();
            if (node == null) {
                break;
            }
            Connection c = open(node);
            if (c != null) {
                return c;
            }
        }
        if (inTransaction) {
            // the whole read-only transaction then stays on the primary, for one consistent snapshot
            replicaUnavailableInTx = true;
        }
        return null;
    }

    /** Opens a connection to {@code node} as this connection's replica connection; null (and the node marked down) on failure. */
    private Connection open(ReplicaNode node) throws SQLException {
        Connection c = router.borrow(node);
        if (c == null) {
            return null;
        }
        try {
            if (c.getAutoCommit() != autoCommit) {
                c.setAutoCommit(autoCommit);
            }
            applySessionState(c);
        }
        catch (SQLException | RuntimeException e) {
            router.replicas().markDown(node, e);
            router.giveBack(node, c);
            return null;
        }
        replica = c;
        replicaNode = node;
        return c;
    }

    private void applySessionState(Connection c) throws SQLException {
        if (isolation != -1 && c.getTransactionIsolation() != isolation) {
            c.setTransactionIsolation(isolation);
        }
        if (catalog != null) {
            c.setCatalog(catalog);
        }
        if (schema != null) {
            c.setSchema(schema);
        }
        if (holdability != -1) {
            c.setHoldability(holdability);
        }
    }

    /** The connection of the current transaction for work that carries no SQL (createStatement, savepoints). */
    private Connection current(boolean countAsStatement) throws SQLException {
        checkOpen();
        if (autoCommit) {
            followExternalTransaction();
        }
        if (tx == Tx.PENDING) {
            beginTransaction();
        }
        if ((tx == Tx.READ_ONLY_STRICT || tx == Tx.READ_ONLY_PREFERRED) && replica != null) {
            if (countAsStatement) {
                router.record(session, replicaNode.decision(RouteReason.READ_ONLY_TRANSACTION), replicaNode.index(), null);
            }
            return replica;
        }
        if (countAsStatement) {
            router.record(session, router.primaryDecision(RouteReason.UNCLASSIFIED_STATEMENT), -1, null);
            wrote(); // its SQL is unknown: it may write
        }
        return primary();
    }

    /** Something to do on a physical connection. */
    @FunctionalInterface
    private interface ConnectionAction {
        void apply(Connection connection) throws SQLException;
    }

    /** Applies a setting change to every physical connection this logical connection has open. */
    private void forEachOpen(ConnectionAction action) throws SQLException {
        if (primary != null) {
            action.apply(primary);
        }
        if (replica != null) {
            action.apply(replica);
        }
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("hibernate-rwsplit: connection is closed", "08003");
        }
    }

    private static String abbreviate(String sql) {
        return sql == null || sql.length() <= 200 ? sql : sql.substring(0, 200) + "...";
    }

    // ------------------------------------------------------------------ statements

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        Connection c = route(sql);
        PreparedStatement ps = c.prepareStatement(sql);
        return c == replica ? onReplica(ps, sql, -1, -1, -1) : ps;
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        Connection c = route(sql);
        PreparedStatement ps = c.prepareStatement(sql, resultSetType, resultSetConcurrency);
        return c == replica ? onReplica(ps, sql, resultSetType, resultSetConcurrency, -1) : ps;
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        Connection c = route(sql);
        PreparedStatement ps = c.prepareStatement(sql, resultSetType, resultSetConcurrency, resultSetHoldability);
        return c == replica ? onReplica(ps, sql, resultSetType, resultSetConcurrency, resultSetHoldability) : ps;
    }

    // ------------------------------------------------------------------ replica health (failover of reads)

    /** Wraps a statement prepared on the replica: in-flight count, ejection on connection errors, retry of autocommit reads. */
    private PreparedStatement onReplica(PreparedStatement ps, String sql, int type, int concurrency, int holdability) {
        // a replica chosen for a consistency guarantee (caught up, within a staleness bound) is not interchangeable
        boolean anyReplica = replicaReason == RouteReason.REPLICA_READ || replicaReason == RouteReason.REPLICA_HINT;
        return new ReplicaStatement(this, replicaNode, ps, sql, tx == Tx.NONE, anyReplica, type, concurrency, holdability);
    }

    /**
     * Moves an autocommit read whose replica failed before returning results to another healthy replica,
     * else to the primary (unless {@code fallback=fail}); a read whose replica was chosen for a consistency
     * guarantee goes to the primary. Returns false when it must not be retried.
     */
    boolean retry(ReplicaStatement statement, ReplicaNode failed) throws SQLException {
        if (tx != Tx.NONE || closed) {
            return false;
        }
        if (replicaNode == failed) {
            Connection broken = replica;
            replica = null;
            replicaNode = null;
            try {
                router.giveBack(failed, broken);
            }
            catch (SQLException ignored) {
                // it is broken: the pool discards it
            }
        }
        Connection c = statement.anyReplica() ? replica(false) : null;
        if (c != null) {
            router.record(session, replicaNode.decision(RouteReason.RETRY_REPLICA), replicaNode.index(), statement.sql());
            session.servedByReplica();
            replicaReason = RouteReason.RETRY_REPLICA;
            statement.retarget(c, replicaNode);
            return true;
        }
        if (!router.fallsBackToPrimary()) {
            return false;
        }
        router.record(session, router.primaryDecision(RouteReason.RETRY_PRIMARY), -1, statement.sql());
        session.servedByPrimary();
        statement.retarget(primary(), null);
        return true;
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return route(sql).prepareStatement(sql, autoGeneratedKeys);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return route(sql).prepareStatement(sql, columnIndexes);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return route(sql).prepareStatement(sql, columnNames);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        return route(sql).prepareCall(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return route(sql).prepareCall(sql, resultSetType, resultSetConcurrency);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
                                         int resultSetHoldability) throws SQLException {
        return route(sql).prepareCall(sql, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    /** No SQL yet: the primary, or the replica of a read-only transaction. */
    @Override
    public Statement createStatement() throws SQLException {
        return current(true).createStatement();
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        return current(true).createStatement(resultSetType, resultSetConcurrency);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        return current(true).createStatement(resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        return current(false).nativeSQL(sql);
    }

    // ------------------------------------------------------------------ transactions

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (autoCommit == this.autoCommit) {
            return;
        }
        if (!autoCommit) {
            if (wrote) {
                recordWrite();
            }
            tx = Tx.PENDING;
            softReadOnlyAtBegin = session.intent() == Intent.REPLICA || session.defaultReadOnly();
            replicaUnavailableInTx = false;
            txConsistencyChecked = false;
        }
        SQLException failure = null;
        // committing on the primary first: if it fails, the replica's (read-only) work is irrelevant
        if (primary != null) {
            try {
                primary.setAutoCommit(autoCommit);
            }
            catch (SQLException e) {
                failure = e;
            }
        }
        if (replica != null) {
            try {
                replica.setAutoCommit(autoCommit);
            }
            catch (SQLException e) {
                failure = chain(failure, e);
            }
        }
        this.autoCommit = autoCommit;
        if (autoCommit) {
            tx = Tx.NONE;
            if (wrote && failure == null) {
                recordWrite(); // switching autocommit on committed the open transaction
            }
            wrote = false;
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return autoCommit;
    }

    @Override
    public void commit() throws SQLException {
        checkOpen();
        SQLException failure = null;
        if (primary != null && !autoCommit) {
            primary.commit();
            if (wrote) {
                recordWrite();
            }
        }
        if (replica != null && !autoCommit) {
            try {
                replica.commit();
            }
            catch (SQLException e) {
                failure = e;
            }
        }
        if (!autoCommit) {
            tx = Tx.PENDING;
            softReadOnlyAtBegin = session.intent() == Intent.REPLICA || session.defaultReadOnly();
            txConsistencyChecked = false;
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        if (!autoCommit) {
            wrote = false; // a rolled-back transaction wrote nothing anyone can read
        }
        SQLException failure = null;
        if (primary != null && !autoCommit) {
            try {
                primary.rollback();
            }
            catch (SQLException e) {
                failure = e;
            }
        }
        if (replica != null && !autoCommit) {
            try {
                replica.rollback();
            }
            catch (SQLException e) {
                failure = chain(failure, e);
            }
        }
        if (!autoCommit) {
            tx = Tx.PENDING;
            softReadOnlyAtBegin = session.intent() == Intent.REPLICA || session.defaultReadOnly();
            txConsistencyChecked = false;
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        return current(false).setSavepoint();
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        return current(false).setSavepoint(name);
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        current(false).rollback(savepoint);
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        current(false).releaseSavepoint(savepoint);
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        this.readOnly = readOnly;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return readOnly;
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        isolation = level;
        forEachOpen(c -> c.setTransactionIsolation(level));
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        if (isolation == -1) {
            isolation = current(false).getTransactionIsolation();
        }
        return isolation;
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        if (wrote && autoCommit) {
            recordWrite();
        }
        closed = true;
        session.servedByPrimary();
        SQLException failure = null;
        if (replica != null) {
            try {
                router.giveBack(replicaNode, replica);
            }
            catch (SQLException e) {
                failure = e;
            }
            replica = null;
            replicaNode = null;
        }
        if (primary != null) {
            try {
                router.primary().release(primary);
            }
            catch (SQLException e) {
                failure = chain(failure, e);
            }
            primary = null;
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (closed) {
            return false;
        }
        return (primary == null || primary.isValid(timeout)) && (replica == null || replica.isValid(timeout));
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        closed = true;
        if (primary != null) {
            primary.abort(executor);
        }
        if (replica != null) {
            replica.abort(executor);
        }
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        SQLWarning warnings = primary == null ? null : primary.getWarnings();
        if (replica != null) {
            SQLWarning replicaWarnings = replica.getWarnings();
            if (warnings == null) {
                warnings = replicaWarnings;
            }
            else if (replicaWarnings != null) {
                warnings.setNextWarning(replicaWarnings);
            }
        }
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        forEachOpen(Connection::clearWarnings);
    }

    // ------------------------------------------------------------------ state kept and replayed

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
        this.catalog = catalog;
        forEachOpen(c -> c.setCatalog(catalog));
    }

    @Override
    public String getCatalog() throws SQLException {
        return catalog != null ? catalog : current(false).getCatalog();
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        this.schema = schema;
        forEachOpen(c -> c.setSchema(schema));
    }

    @Override
    public String getSchema() throws SQLException {
        return schema != null ? schema : current(false).getSchema();
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        this.holdability = holdability;
        forEachOpen(c -> c.setHoldability(holdability));
    }

    @Override
    public int getHoldability() throws SQLException {
        return holdability != -1 ? holdability : current(false).getHoldability();
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        current(false).setNetworkTimeout(executor, milliseconds);
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        return current(false).getNetworkTimeout();
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        try {
            current(false).setClientInfo(name, value);
        }
        catch (SQLClientInfoException e) {
            throw e;
        }
        catch (SQLException e) {
            throw new SQLClientInfoException(e.getMessage(), Map.of(), e);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        try {
            current(false).setClientInfo(properties);
        }
        catch (SQLClientInfoException e) {
            throw e;
        }
        catch (SQLException e) {
            throw new SQLClientInfoException(e.getMessage(), Map.of(), e);
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        return current(false).getClientInfo(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        return current(false).getClientInfo();
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        return current(false).getTypeMap();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        current(false).setTypeMap(map);
    }

    // ------------------------------------------------------------------ factories (data goes to the primary)

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        return primary().getMetaData();
    }

    @Override
    public Clob createClob() throws SQLException {
        return current(false).createClob();
    }

    @Override
    public Blob createBlob() throws SQLException {
        return current(false).createBlob();
    }

    @Override
    public NClob createNClob() throws SQLException {
        return current(false).createNClob();
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        return current(false).createSQLXML();
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        return current(false).createArrayOf(typeName, elements);
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        return current(false).createStruct(typeName, attributes);
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return current(false).unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || current(false).isWrapperFor(iface);
    }

    private static SQLException chain(SQLException first, SQLException next) {
        if (first == null) {
            return next;
        }
        first.setNextException(next);
        return first;
    }

    @Override
    public String toString() {
        return "RoutingConnection[" + router.label() + ", tx=" + tx + ", primary=" + (primary != null)
                + ", replica=" + replicaNode + "]";
    }
}
