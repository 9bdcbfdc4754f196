package io.rwsplit.route;

import io.rwsplit.consistency.CausalReads;
import io.rwsplit.consistency.ConsistencyToken;

/** Which replica is worth a causal wait: one that can apply the requirement within the wait timeout. */
final class CatchUp {

    private CatchUp() {
    }

    /**
     * {@code chosen} (the balancer's pick) when it can apply {@code need} within the timeout, else the first
     * other healthy replica that can, else {@code null}: then no wait can succeed and the read goes to the primary.
     */
    static ReplicaNode replicaThatCanCatchUp(ReplicaSet set, ReplicaNode chosen, CausalReads causal, ConsistencyToken need) {
        if (causal.canCatchUp(chosen.index(), chosen.lagMicros(), need)) {
            return chosen;
        }
        for (ReplicaNode node : set.nodes()) {
            if (node != chosen && set.isUp(node) && causal.canCatchUp(node.index(), node.lagMicros(), need)) {
                return node;
            }
        }
        return null;
    }
}
