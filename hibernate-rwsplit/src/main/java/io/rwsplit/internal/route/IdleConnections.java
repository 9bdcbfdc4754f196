package io.rwsplit.internal.route;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Closed logical connections of one router waiting to serve the next session ({@link Router#open}), so that a session
 * does not build its routing connection, tracker, gate and holders anew. Each waits in a slot of a fixed array: a close
 * puts it into a free slot by compare-and-set, an open takes one out the same way; both start at a slot chosen by the
 * calling thread, so that a thread usually takes back the connection it closed. When every slot is taken a closed
 * connection is left to the garbage collector; when none is, the open builds a new one. A connection in a slot serves
 * no session and holds no physical connection. Thread-safe, without locks.
 */
final class IdleConnections {

    /** Slots: more than the threads of most applications that open sessions at the same moment. */
    static final int SLOTS = 32;

    private final AtomicReferenceArray<RoutingConnection> slots = new AtomicReferenceArray<>(SLOTS);

    /** A closed connection to serve a new session, or null when none waits. */
    RoutingConnection take() {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            RoutingConnection c = slots.get(slot);
            if (c != null && slots.compareAndSet(slot, c, null)) {
                return c;
            }
        }
        return null;
    }

    /** {@code c}, closed and cleared, waits for the next session (or is dropped when every slot is taken). */
    void put(RoutingConnection c) {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, c)) {
                return;
            }
        }
    }

    /** How many connections wait. */
    int size() {
        int n = 0;
        for (int i = 0; i < SLOTS; i++) {
            if (slots.get(i) != null) {
                n++;
            }
        }
        return n;
    }

    private static int start() {
        return (int) Thread.currentThread().getId() & (SLOTS - 1);
    }
}
