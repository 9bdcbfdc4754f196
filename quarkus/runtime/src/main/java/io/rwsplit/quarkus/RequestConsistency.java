package io.rwsplit.quarkus;

import io.rwsplit.Intent;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.Tokens;

/**
 * The consistency state of one Quarkus REST request: its scope key, the token it brought (cookie), its intent and
 * the writes its sessions committed. Confined to the request's thread.
 */
final class RequestConsistency {

    private final String scope;
    private final ConsistencyToken carried;
    private final Intent intent;
    private ConsistencyToken writes;

    /**
     * @param scope   the consistency scope of the request's sessions ({@code session:...}, {@code principal:...},
     *                {@code cookie:...}), or {@code null}
     * @param carried the write the request must see (from its cookie; an untrusted token for a cookie this instance
     *                cannot verify), or {@code null}
     * @param intent  {@link Intent#PRIMARY} for a request whose every statement runs on the primary, else
     *                {@link Intent#NONE}
     */
    RequestConsistency(String scope, ConsistencyToken carried, Intent intent) {
        this.scope = scope;
        this.carried = carried;
        this.intent = intent;
    }

    String scope() {
        return scope;
    }

    ConsistencyToken carried() {
        return carried;
    }

    Intent intent() {
        return intent;
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
