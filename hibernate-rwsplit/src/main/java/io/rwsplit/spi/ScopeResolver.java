package io.rwsplit.spi;

import io.rwsplit.position.ConsistencyToken;

/**
 * Names the consistency scope of the current unit of work (a user id, an HTTP session id), in the spirit
 * of Hibernate's {@code CurrentTenantIdentifierResolver}. Configured by
 * {@link io.rwsplit.RwSplitSettings#SCOPE_RESOLVER}; consulted once per session, lazily, at the first
 * statement that needs the scope (a read that must honour earlier writes, or the commit of a write),
 * on the thread that runs it. {@code io.rwsplit.RwSplit#scope} overrides it for one session.
 * <p>
 * A unit of work that carries its own knowledge of earlier writes (an HTTP request with a consistency
 * token in a cookie or header, possibly written on another application instance) hands it to every session
 * it opens through {@link #resolveRequirement()}, and learns of the writes its sessions commit through
 * {@link #committed}, so that it can pass them on.
 */
@FunctionalInterface
public interface ScopeResolver {

    /** The scope key, or {@code null} to keep the session as its own scope. */
    String resolveScope();

    /**
     * A write that every read of the current unit of work must see besides the scope's recorded writes (as
     * {@code RwSplit.requireToken} does for one session), or {@code null}. Consulted once per session, together
     * with {@link #resolveScope()}, on the same thread. Default: none.
     */
    default ConsistencyToken resolveRequirement() {
        return null;
    }

    /**
     * A session of the current unit of work committed {@code write}; called on the committing thread after the
     * write is recorded for the session's scope. Must be cheap and must not fail. Default: nothing.
     */
    default void committed(ConsistencyToken write) {
    }
}
