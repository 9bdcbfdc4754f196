package io.rwsplit;

import java.util.Objects;

/**
 * One routing decision: where a statement went and why. Instances are shared (one per reason for the
 * primary, one per reason and replica for replicas), so recording a decision allocates nothing.
 *
 * @param target  primary or replica
 * @param replica the replica's configured name, or {@code null} for the primary
 * @param reason  why
 */
public record RouteDecision(Target target, String replica, RouteReason reason) {

    public RouteDecision {
        Objects.requireNonNull(reason, "reason");
        if (target != reason.target()) {
            throw new IllegalArgumentException("reason " + reason + " implies " + reason.target() + ", not " + target);
        }
        if ((target == Target.REPLICA) == (replica == null)) {
            throw new IllegalArgumentException("a replica decision names its replica, a primary decision does not");
        }
    }

    public static RouteDecision primary(RouteReason reason) {
        return new RouteDecision(Target.PRIMARY, null, reason);
    }

    public static RouteDecision replica(String replica, RouteReason reason) {
        return new RouteDecision(Target.REPLICA, replica, reason);
    }

    public boolean isPrimary() {
        return target == Target.PRIMARY;
    }

    @Override
    public String toString() {
        return replica == null ? target + "(" + reason + ")" : target + ":" + replica + "(" + reason + ")";
    }
}
