package io.rwsplit.spring.app;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/** A service whose annotations apply to the repository calls made inside. */
@Service
public class Nodes {

    private final ParentRepository parents;

    public Nodes(ParentRepository parents) {
        this.parents = parents;
    }

    @ReadReplica
    @Transactional
    public String onReplica() {
        return parents.whoAmI();
    }

    /** The outer call asks for a replica; the nested repository method's @UsePrimary wins; the outer intent is back after it. */
    @ReadReplica
    @Transactional(readOnly = true)
    public String[] replicaThenNestedPrimaryThenReplica() {
        return new String[] {parents.whoAmI(), parents.whoAmIOnPrimary(), parents.whoAmI()};
    }

    @UsePrimary
    public String onPrimaryWithoutTransaction() {
        return parents.whoAmI();
    }

    /** A consistency level for the calls inside: strong reads every statement from the primary. */
    @io.rwsplit.ReadConsistency("strong")
    public String strong() {
        return parents.whoAmI();
    }

    @ReadReplica
    public String throwsInsideReplica() {
        throw new IllegalStateException("boom");
    }

    @UsePrimary
    public String primaryAroundFailingReplicaCall() {
        try {
            throwsInsideReplica();
        }
        catch (IllegalStateException expected) {
            // the outer intent must be restored
        }
        return parents.whoAmI();
    }
}
