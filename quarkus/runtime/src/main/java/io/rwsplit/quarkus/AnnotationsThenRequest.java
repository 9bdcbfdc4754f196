package io.rwsplit.quarkus;

import io.rwsplit.Consistency;
import io.rwsplit.Intent;
import io.rwsplit.spi.RoutingIntentSource;

/**
 * The intent source of a unit with both annotated calls and the REST request scope: the innermost annotated call's
 * intent and level when it names one, else the request's (the primary for unsafe methods), as a frame entered
 * inside the request's would.
 */
record AnnotationsThenRequest(RoutingIntentSource annotations, RoutingIntentSource request) implements RoutingIntentSource {

    @Override
    public Intent currentIntent() {
        Intent intent = annotations.currentIntent();
        return intent != Intent.NONE ? intent : request.currentIntent();
    }

    @Override
    public Consistency currentConsistency() {
        Consistency consistency = annotations.currentConsistency();
        return consistency != null ? consistency : request.currentConsistency();
    }
}
