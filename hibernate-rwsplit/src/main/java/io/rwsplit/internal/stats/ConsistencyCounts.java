package io.rwsplit.internal.stats;

/**
 * What the consistency layer counts, read by the factory's statistics: writes lost in failovers of the primary, and
 * what making sure of replica reads cost (checks in the read's own round trip, questions to the replicas).
 */
public interface ConsistencyCounts {

    /** Nothing counted, ever: a router without consistency state. */
    ConsistencyCounts NONE = new ConsistencyCounts() {
        @Override
        public long lostWriteFailovers() {
            return 0;
        }

        @Override
        public long lostWriteReads() {
            return 0;
        }

        @Override
        public long checkedReplicaReads() {
            return 0;
        }

        @Override
        public long failedReplicaChecks() {
            return 0;
        }

        @Override
        public long replicaPositionQueries() {
            return 0;
        }
    };

    /** Failovers whose new primary did not have the unit's last committed write. */
    long lostWriteFailovers();

    /** Reads that had to see a lost write (failed, or read the new primary's data with {@code lost_writes=log}). */
    long lostWriteReads();

    /** Replica reads checked in their own round trip (the standby's replayed position read in the read's message). */
    long checkedReplicaReads();

    /** Checked replica reads whose standby had not replayed what they must see: their rows were dropped. */
    long failedReplicaChecks();

    /** Questions a read put to a replica about what it applied before reading there: a wait's statement, a poll. */
    long replicaPositionQueries();
}
