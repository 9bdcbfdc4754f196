package io.rwsplit.internal.stats;

/** What the consistency layer counts of writes lost in failovers of the primary, read by the factory's statistics. */
public interface LostWriteCounts {

    /** Nothing lost, ever: a router without consistency state. */
    LostWriteCounts NONE = new LostWriteCounts() {
        @Override
        public long lostWriteFailovers() {
            return 0;
        }

        @Override
        public long lostWriteReads() {
            return 0;
        }
    };

    /** Failovers whose new primary did not have the unit's last committed write. */
    long lostWriteFailovers();

    /** Reads that had to see a lost write (failed, or read the new primary's data with {@code lost_writes=log}). */
    long lostWriteReads();
}
