package io.rwsplit.internal.consistency;

/** How READ_YOUR_WRITES is honoured; setting {@link io.rwsplit.RwSplitSettings#READ_YOUR_WRITES}. */
public enum ReadYourWritesMode {
    /** {@link #GTID} when the primary reports positions (GTIDs on MariaDB and MySQL, LSNs on PostgreSQL), else {@link #TIME}. */
    AUTO,
    /**
     * A replica that applied the scope's last write (known or waited for), else the primary. Exact positions: GTIDs on
     * MariaDB and MySQL, WAL positions (LSNs) on PostgreSQL.
     */
    GTID,
    /** The primary until the scope's last commit time plus the window. */
    TIME
}
