package io.rwsplit.internal.consistency;

import io.rwsplit.RouteReason;

/**
 * The reasons a READ_YOUR_WRITES read reports, by the scope whose writes it honours, so that statistics show
 * the level and the scope that kept a read fresh (or sent it to the primary).
 *
 * @param windowPrimary time mode (or state unknown): the primary
 * @param caughtUp      a replica known to have applied the requirement
 * @param waited        a replica that was made to wait and applied it
 * @param timedOut      the wait timed out: the primary
 * @param behind        no replica can apply it within the timeout (or waiting is disabled): the primary, no wait
 */
public record CausalReasons(RouteReason windowPrimary, RouteReason caughtUp, RouteReason waited, RouteReason timedOut,
                            RouteReason behind) {

    /** A named scope, or the session itself with {@code consistency_scope=session}. */
    public static final CausalReasons SCOPE = new CausalReasons(RouteReason.READ_YOUR_WRITES_PRIMARY,
            RouteReason.CAUSAL_REPLICA_CAUGHT_UP, RouteReason.CAUSAL_WAIT, RouteReason.CAUSAL_TIMEOUT_PRIMARY,
            RouteReason.CAUSAL_BEHIND_PRIMARY);

    /** The persistence unit, the default scope. */
    public static final CausalReasons UNIT = new CausalReasons(RouteReason.UNIT_READ_YOUR_WRITES_PRIMARY,
            RouteReason.UNIT_CAUSAL_REPLICA_CAUGHT_UP, RouteReason.UNIT_CAUSAL_WAIT, RouteReason.UNIT_CAUSAL_TIMEOUT_PRIMARY,
            RouteReason.UNIT_CAUSAL_BEHIND_PRIMARY);
}
