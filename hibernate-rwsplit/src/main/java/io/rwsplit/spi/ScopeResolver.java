package io.rwsplit.spi;

/**
 * Names the consistency scope of the current unit of work (a user id, an HTTP session id), in the spirit
 * of Hibernate's {@code CurrentTenantIdentifierResolver}. Configured by
 * {@link io.rwsplit.RwSplitSettings#SCOPE_RESOLVER}; consulted once per session, lazily, at the first
 * statement that needs the scope (a read that must honour earlier writes, or the commit of a write),
 * on the thread that runs it. {@code io.rwsplit.RwSplit#scope} overrides it for one session.
 */
@FunctionalInterface
public interface ScopeResolver {

    /** The scope key, or {@code null} to keep the session as its own scope. */
    String resolveScope();
}
