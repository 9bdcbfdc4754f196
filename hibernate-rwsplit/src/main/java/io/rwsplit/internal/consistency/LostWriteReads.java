package io.rwsplit.internal.consistency;

/**
 * What a read does that must see a write a failover of the primary lost; setting
 * {@link io.rwsplit.RwSplitSettings#LOST_WRITES}.
 */
public enum LostWriteReads {
    /** It throws {@link io.rwsplit.LostWriteException}, once per session, named scope and token. */
    FAIL,
    /** It reads the new primary's data; logged at WARN and counted. */
    LOG
}
