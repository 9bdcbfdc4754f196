package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReference;

import io.rwsplit.internal.health.ServerAddress;
import io.rwsplit.internal.health.ServerRole;

/**
 * The hosts the primary was seen at, for a driver that moves a connection to another host without an error
 * ({@link ServerAddress}: MariaDB Connector/J on a multi-host URL): whether a primary connection is still on one of
 * them, or on a read-only server where its driver moved it. A few hosts, replaced whole by compare-and-set, so that a
 * host learned before a suspicion ({@link #forget}) is never added after it. One per {@link Router}; no lock.
 */
final class PrimaryHosts {

    private static final Object[] NONE = new Object[0];
    /** At most this many hosts are remembered (a multi-primary cluster behind one URL). */
    private static final int MAX = 8;

    private final String label;
    private final ServerAddress addresses;
    private final AtomicReference<Object[]> seen = new AtomicReference<>(NONE);
    /** The primary's identity as the monitor last saw it ({@link ServerRole#primaryIdentity}), or null. */
    private volatile String identity;   // written by the monitor's thread only

    PrimaryHosts(String label, ServerAddress addresses) {
        this.label = label;
        this.addresses = addresses;
    }

    /** The hosts known now: what {@link #answered} compares with, read before anything may have forgotten them. */
    Object[] known() {
        return seen.get();
    }

    /** A failover may be under way: where the primary was seen no longer counts (a new array, so that no CAS wins). */
    void forget() {
        seen.set(new Object[0]);
    }

    /**
     * The monitor saw a writable primary, {@code identity} (null when its database has none), on {@code address} (null
     * when the driver cannot say); {@code known} was read before the answer was taken for true. Another primary than
     * before makes the hosts of the last one forgotten.
     */
    void answered(Object[] known, Object address, String identity) {
        if (identity != null && !identity.equals(this.identity)) {
            this.identity = identity;
            known = new Object[0];
            seen.set(known);
        }
        if (address != null) {
            add(address, known);
        }
    }

    /**
     * Whether the primary connection {@code c} is on a read-only server now, where its driver moved it without an error:
     * then a statement there may read older than a committed write. A connection whose driver cannot say, or on a host
     * the primary was seen at, has not moved. On another host the server is asked whether it takes writes (one query:
     * only after the driver moved a connection, or once per host): a writable one is remembered there (a promoted
     * primary, one of a multi-primary cluster); a read-only one means the connection moved (logged at WARN).
     */
    boolean moved(Connection c) throws SQLException {
        Object address = addresses.of(c);
        if (address == null) {
            return false;
        }
        Object[] known = seen.get();
        for (Object a : known) {
            if (a.equals(address)) {
                return false;
            }
        }
        if (ServerRole.isWritable(c)) {
            add(address, known);
            return false;
        }
        Router.log.warn("[{}] a primary connection is on {} now, a read-only server: its driver moved it there when the"
                + " primary went away; nothing runs there (an autocommit read waits for the primary), and the connection"
                + " is closed for good once released", label, address);
        return true;
    }

    /** The driver's connection under the pool's {@code c}: what closing closes for good. */
    Connection driverConnection(Connection c) {
        return addresses.driverConnection(c);
    }

    /** Remembers {@code address}, unless the hosts changed since {@code known} was read, or {@link #MAX} are known. */
    private void add(Object address, Object[] known) {
        for (Object a : known) {
            if (a.equals(address)) {
                return;
            }
        }
        if (known.length < MAX) {
            Object[] next = java.util.Arrays.copyOf(known, known.length + 1);
            next[known.length] = address;
            seen.compareAndSet(known, next);
        }
    }
}
