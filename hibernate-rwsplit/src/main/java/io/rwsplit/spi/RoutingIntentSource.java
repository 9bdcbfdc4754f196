package io.rwsplit.spi;

import io.rwsplit.route.Intent;

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
     * The consistency level asked for the current unit of work (a level name such as
     * {@code READ_YOUR_WRITES}), or {@code null} for the configured default. Reserved for the consistency
     * rules; routing does not read it yet.
     */
    default String currentConsistency() {
        return null;
    }

    /**
     * The key of the consistency scope of the current unit of work (for example the authenticated user),
     * whose writes {@code READ_YOUR_WRITES} must see; {@code null} for the session's own scope. Reserved for
     * the consistency rules; routing does not read it yet.
     */
    default String currentScopeKey() {
        return null;
    }

    /** Nothing is ever asked (the default). */
    RoutingIntentSource NONE = () -> Intent.NONE;
}
