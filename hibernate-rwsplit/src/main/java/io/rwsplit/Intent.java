package io.rwsplit;

/** What the application asked for a block of work. */
public enum Intent {
    /** Nothing asked: the rules decide. */
    NONE,
    /** Everything on the primary ({@code RwSplit.onPrimary}). */
    PRIMARY,
    /** Reads may go to a replica, also in a transaction that starts inside the block ({@code RwSplit.onReplica}, {@code @ReadReplica}). */
    REPLICA
}
