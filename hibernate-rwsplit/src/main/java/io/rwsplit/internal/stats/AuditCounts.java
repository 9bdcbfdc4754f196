package io.rwsplit.internal.stats;

/** What the stale-read audit counted (the routing layer audits). */
public interface AuditCounts {

    /** Sampled replica reads whose replica position was compared. */
    long auditedReads();

    /** Sampled replica reads whose positions could not be read or compared (H2, time mode, no GTIDs). */
    long unauditedReads();

    /** Audited reads whose replica lacked a write the unit had committed when the read was routed. */
    long staleReadsAgainstUnit();

    /** Audited reads whose replica lacked what the session's consistency level required. */
    long staleReadsAgainstSession();

    /** No audit. */
    AuditCounts NONE = new AuditCounts() {
        @Override
        public long auditedReads() {
            return 0;
        }

        @Override
        public long unauditedReads() {
            return 0;
        }

        @Override
        public long staleReadsAgainstUnit() {
            return 0;
        }

        @Override
        public long staleReadsAgainstSession() {
            return 0;
        }
    };
}
