package io.rwsplit;

import java.sql.SQLException;

/**
 * A read must see a write that a failover of the primary lost: the old primary acknowledged it, no replica had it
 * when another server became the primary (replication is asynchronous), so the new primary does not have it and no
 * server can answer the read as the application expects. Thrown once, by the first read of the session, named scope
 * or token that required the lost write (and by reads in flight at the change); later reads see the new primary's
 * data. Also thrown, the same way, for a write that may have been lost: its connection broke as the old primary
 * acknowledged it, before its position could be read, and the old primary was never seen again ({@link #lostPosition()}
 * null). SQLState {@code 40003} (statement completion unknown). Hibernate hands it on as the cause of its own exception.
 */
public final class LostWriteException extends SQLException {

    private final String lostPosition;

    public LostWriteException(String message, String lostPosition) {
        super(message, "40003");
        this.lostPosition = lostPosition;
    }

    /**
     * The position (GTID or LSN) of the write that was lost, as the primary reported it when it committed; null for a
     * write that may have been lost: the old primary acknowledged it and went away before its position could be read,
     * and was not seen again.
     */
    public String lostPosition() {
        return lostPosition;
    }
}
