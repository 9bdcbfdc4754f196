package io.rwsplit.spi;

import io.rwsplit.Consistency;
import io.rwsplit.Intent;

/**
 * The routing intent of the calling thread's current unit of work when the session itself was given
 * none: how a container (the CDI interceptors of {@code hibernate-rwsplit-cdi}) applies
 * {@code @ReadReplica} / {@code @UsePrimary} to every session used inside an intercepted call without
 * knowing those sessions.
 * <p>
 * An intent set on the session ({@code RwSplit.onPrimary/onReplica}) always wins over this one.
 * Configured by {@link io.rwsplit.RwSplitSettings#INTENT_SOURCE}. Called once per statement on the
 * thread that runs it: implementations must be cheap, must not block and must not fail.
 */
@FunctionalInterface
public interface RoutingIntentSource {

    /** The current intent, {@link Intent#NONE} when nothing was asked. */
    Intent currentIntent();

    /**
     * The consistency level of the current unit of work, or {@code null} to use the session's own
     * ({@code RwSplit.consistency}, default {@code hibernate.rwsplit.consistency}). When not null it applies
     * to every read of the sessions used meanwhile, in place of their own level.
     */
    default Consistency currentConsistency() {
        return null;
    }

    /** Nothing is ever asked (the default). */
    RoutingIntentSource NONE = () -> Intent.NONE;
}
