package io.rwsplit.internal.route;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The parts of closed logical connections of one router (their {@link ConnectionRouting}: tracker, gate, holders,
 * settings, failover) waiting to serve the next session ({@link Router#open}), which gets a new facade over them
 * instead of building them anew. Each waits in a slot of a fixed array: a close puts it into a free slot by
 * compare-and-set, an open takes one out the same way; both start at a slot chosen by the calling thread, so that a
 * thread usually takes back what it closed. When every slot is taken the parts are left to the garbage collector;
 * when none is, the open builds new ones. Parts in a slot serve no session and hold no physical connection.
 * Thread-safe, without locks.
 */
final class IdleConnections {

    /** Slots: more than the threads of most applications that open sessions at the same moment. */
    static final int SLOTS = 32;

    private final AtomicReferenceArray<ConnectionRouting> slots = new AtomicReferenceArray<>(SLOTS);

    /** The parts of a closed connection to serve a new session, or null when none wait. */
    ConnectionRouting take() {
        int start = start();
        for (int i = 0; i < SLOTS; i++) {
            int slot = (start + i) & (SLOTS - 1);
            ConnectionRouting c = slots.get(slot);
            if (c != null && slots.compareAndSet(slot, c, null)) {
                return c;
            }
        }
        return null;
    }

    /** {@code c}, closed and cleared, waits for the next session (or is dropped when every slot is taken). */
    void put(ConnectionRouting c) {
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
