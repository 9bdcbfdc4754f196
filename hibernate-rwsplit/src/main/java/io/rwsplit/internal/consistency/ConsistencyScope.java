package io.rwsplit.internal.consistency;

/**
 * Whose writes a READ_YOUR_WRITES read of a session without a named scope must see; setting
 * {@link io.rwsplit.RwSplitSettings#CONSISTENCY_SCOPE}. A session with a named scope
 * ({@code RwSplit.scope}, a {@code ScopeResolver}) sees its scope's writes and its own, whatever this says.
 */
public enum ConsistencyScope {
    /**
     * Every write the persistence unit committed before the read began (in this JVM, and in every instance
     * sharing the {@code redis} store): a page read after a redirect, or a read in any later session, sees it.
     */
    UNIT,
    /** Only the session's own writes (and tokens it was given): a new session may read from a lagging replica. */
    SESSION
}
