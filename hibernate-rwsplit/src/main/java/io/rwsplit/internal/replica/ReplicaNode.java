package io.rwsplit.internal.replica;

import java.sql.Connection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import javax.sql.DataSource;

import io.rwsplit.RouteDecision;
import io.rwsplit.RouteReason;
import io.rwsplit.Target;
import io.rwsplit.spi.ReplicaView;

/** One replica at run time: its connections, its precomputed decisions and its live counters. */
public final class ReplicaNode implements ReplicaView {

    private final int index;
    private final String name;
    private final int weight;
    private final int tier;
    private final DataSource dataSource;
    private final boolean setReadOnly;
    private final PoolControl pool;
    private final RouteDecision[] decisions = new RouteDecision[RouteReason.values().length];
    private final AtomicInteger inFlight = new AtomicInteger();
    /** The connections borrowed from this replica and not yet given back: what a frozen replica holds up. */
    private final LentConnections lent = new LentConnections();
    private volatile long lagMicros;
    /** Physical connections already asked when their server started ({@link ReplicaSet#checkServerRun}). */
    private final Set<Connection> checkedRuns = ConcurrentHashMap.newKeySet();
    /** The server's run as its connections said (the highest connection id seen in it); null until known. */
    private volatile io.rwsplit.internal.health.ServerStart.Run run;

    /**
     * @param setReadOnly whether each borrowed connection must be switched to read-only here (true for
     *                    application-supplied data sources; our own pools are configured read-only)
     */
    public ReplicaNode(int index, String name, int weight, int tier, DataSource dataSource, boolean setReadOnly) {
        this(index, name, weight, tier, dataSource, setReadOnly, null);
    }

    /**
     * @param pool what routing may ask of the replica's pool, or {@code null} when it is unknown: session
     *             commands are then not replayed on this replica (the connection stays on the primary instead)
     */
    public ReplicaNode(int index, String name, int weight, int tier, DataSource dataSource, boolean setReadOnly,
                       PoolControl pool) {
        this.pool = pool;
        this.index = index;
        this.name = name;
        this.weight = weight;
        this.tier = tier;
        this.dataSource = dataSource;
        this.setReadOnly = setReadOnly;
        for (RouteReason reason : RouteReason.values()) {
            if (reason.target() == Target.REPLICA) {
                decisions[reason.ordinal()] = RouteDecision.replica(name, reason);
            }
        }
    }

    /** The shared decision "this replica, for this reason". */
    public RouteDecision decision(RouteReason reason) {
        return decisions[reason.ordinal()];
    }

    public int index() {
        return index;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int weight() {
        return weight;
    }

    @Override
    public int tier() {
        return tier;
    }

    @Override
    public long lagMicros() {
        return lagMicros;
    }

    public void lagMicros(long lag) {
        this.lagMicros = lag;
    }

    @Override
    public int inFlight() {
        return inFlight.get();
    }

    public AtomicInteger inFlightCounter() {
        return inFlight;
    }

    /**
     * Whether the physical connection {@code physical} is used for the first time (then it is remembered: its
     * server's start time is asked once). The memory is bounded: beyond 256 it starts again (each is asked once more).
     */
    boolean firstUse(Connection physical) {
        if (checkedRuns.contains(physical)) {
            return false;
        }
        if (checkedRuns.size() >= 256) {
            checkedRuns.clear();
        }
        return checkedRuns.add(physical);
    }

    /**
     * Records {@code now}, read on a connection's first use; returns whether it is another run of the server than the
     * one known before (it restarted since).
     */
    synchronized boolean restartedBy(io.rwsplit.internal.health.ServerStart.Run now) {
        io.rwsplit.internal.health.ServerStart.Run before = run;
        boolean restarted = before != null && before.restartedBy(now);
        run = before == null || restarted ? now : before.highest(now);
        return restarted;
    }

    /** A connection was borrowed from this replica for routing. */
    public void lent(Connection connection) {
        lent.add(connection);
    }

    /** A connection borrowed from this replica went back to its pool (or was closed for good). */
    public void returned(Connection connection) {
        lent.remove(connection);
    }

    /** How many connections borrowed from this replica are not yet given back. */
    public int lentCount() {
        return lent.size();
    }

    /**
     * Hands every connection lent out to this replica to {@code action}, once each, and forgets them: the monitor
     * aborts them when the replica stops answering, so that reads blocked on it fail and move elsewhere.
     */
    public void takeLent(Consumer<Connection> action) {
        lent.takeAll(action);
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public boolean setReadOnly() {
        return setReadOnly;
    }

    /** The replica's pool, or {@code null} when unknown. */
    public PoolControl pool() {
        return pool;
    }

    @Override
    public String toString() {
        return name;
    }
}
