package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.Intent;
import io.rwsplit.internal.route.RoutingFrame;

class RoutingContextTest {

    private final RoutingContext context = new RoutingContext();

    @Test
    void nestedFramesInheritWhatTheyLeaveUnsetAndRestoreTheOuterOnExit() {
        io.rwsplit.Consistency eventual = io.rwsplit.Consistency.eventual();
        context.enter(new RoutingFrame(Intent.REPLICA, eventual));
        context.enter(new RoutingFrame(Intent.PRIMARY, null));
        assertEquals(Intent.PRIMARY, context.currentIntent());
        assertSame(eventual, context.currentConsistency());
        context.exit();
        assertEquals(Intent.REPLICA, context.currentIntent());
        context.exit();
        assertEquals(Intent.NONE, context.currentIntent());
        assertNull(context.currentConsistency());
        assertThrows(IllegalStateException.class, context::exit);
    }

    @Test
    void aRequestGivesItsScopeAndTokenToSessionsAndCollectsTheirWrites() {
        ConsistencyToken carried = ConsistencyToken.withoutPosition(1_000);
        RequestConsistency request = new RequestConsistency("cookie:abc", carried);
        context.beginRequest(request, new RoutingFrame(Intent.PRIMARY, null));
        assertEquals("cookie:abc", context.resolveScope());
        assertSame(carried, context.resolveRequirement());
        assertEquals(Intent.PRIMARY, context.currentIntent());
        context.enter(new RoutingFrame(Intent.REPLICA, null));
        assertEquals(Intent.REPLICA, context.currentIntent(), "an annotated call inside the request applies its own intent");
        context.exit();
        context.committed(ConsistencyToken.withoutPosition(2_000));
        context.endRequest();
        assertEquals(ConsistencyToken.withoutPosition(2_000), request.next());
        assertNull(context.resolveScope(), "nothing leaks to the next use of the thread");
        assertEquals(Intent.NONE, context.currentIntent());
        context.committed(ConsistencyToken.withoutPosition(3_000)); // outside a request: ignored
        assertEquals(ConsistencyToken.withoutPosition(2_000), request.next());
    }

    @Test
    void anotherThreadSeesNothingOfThisThreadsState() throws InterruptedException {
        context.enter(new RoutingFrame(Intent.PRIMARY, null));
        Intent[] seen = new Intent[1];
        Thread other = new Thread(() -> seen[0] = context.currentIntent());
        other.start();
        other.join();
        assertEquals(Intent.NONE, seen[0]);
        context.exit();
    }
}
