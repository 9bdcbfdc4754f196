package io.rwsplit.spring;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.Tokens;

/**
 * The consistency state of one web request: its scope key, the token it brought (cookie) and the writes its
 * sessions committed. Confined to the request's thread.
 */
final class RequestConsistency {

    private final String scope;
    private final ConsistencyToken carried;
    private ConsistencyToken writes;

    /**
     * @param scope   the consistency scope of the request's sessions ({@code session:...}, {@code principal:...},
     *                {@code cookie:...}), or {@code null}
     * @param carried the write the request must see (from its cookie), or {@code null}
     */
    RequestConsistency(String scope, ConsistencyToken carried) {
        this.scope = scope;
        this.carried = carried;
    }

    String scope() {
        return scope;
    }

    ConsistencyToken carried() {
        return carried;
    }

    void wrote(ConsistencyToken write) {
        writes = Tokens.merge(writes, write);
    }

    /** Whether a session of this request committed a write. */
    boolean wrote() {
        return writes != null;
    }

    /** What the next request of this client must see: what this one carried and what it wrote. */
    ConsistencyToken next() {
        return Tokens.merge(carried, writes);
    }
}
