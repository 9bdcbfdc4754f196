package io.rwsplit.internal.replica;

import java.sql.Connection;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The connections a replica lent for routing and not yet given back: what a frozen replica holds up, aborted by the
 * monitor. Kept in slots that never move (blocks of {@value #BLOCK}, a new block appended when every slot is taken),
 * so that lending and giving back allocate nothing and take no lock: a lend takes a free slot by compare-and-set (the
 * search starting at a slot of the calling thread's), a give-back frees the slot holding the connection, and the monitor empties the slots it takes. Thread-safe.
 */
final class LentConnections {

    /** Slots per block: more than a replica pool usually lends at once, so one block is the rule. */
    static final int BLOCK = 32;

    private static final class Block {
        final AtomicReferenceArray<Connection> slots = new AtomicReferenceArray<>(BLOCK);
        volatile Block next;
    }

    private final Block first = new Block();

    /** {@code connection} was lent. */
    void add(Connection connection) {
        int start = start();
        for (Block b = first; ; b = nextOf(b)) {
            for (int i = 0; i < BLOCK; i++) {
                int slot = (start + i) & (BLOCK - 1);
                if (b.slots.get(slot) == null && b.slots.compareAndSet(slot, null, connection)) {
                    return;
                }
            }
        }
    }

    /** {@code connection} went back (or was taken by {@link #takeAll}: then nothing is left to free). */
    void remove(Connection connection) {
        int start = start();
        for (Block b = first; b != null; b = b.next) {
            for (int i = 0; i < BLOCK; i++) {
                int slot = (start + i) & (BLOCK - 1);
                if (b.slots.get(slot) == connection && b.slots.compareAndSet(slot, connection, null)) {
                    return;
                }
            }
        }
    }

    /** Where a thread's search begins: the thread that borrowed a connection usually gives it back, found at once. */
    private static int start() {
        return (int) Thread.currentThread().getId() & (BLOCK - 1);
    }

    /** How many connections are lent now. */
    int size() {
        int n = 0;
        for (Block b = first; b != null; b = b.next) {
            for (int i = 0; i < BLOCK; i++) {
                if (b.slots.get(i) != null) {
                    n++;
                }
            }
        }
        return n;
    }

    /** Hands every connection lent now to {@code action}, once each, and forgets it. */
    void takeAll(Consumer<Connection> action) {
        for (Block b = first; b != null; b = b.next) {
            for (int i = 0; i < BLOCK; i++) {
                Connection c = b.slots.getAndSet(i, null);
                if (c != null) {
                    action.accept(c);
                }
            }
        }
    }

    /** The block after {@code b}, appended when there is none yet (every slot of the blocks before is taken). */
    private static Block nextOf(Block b) {
        Block next = b.next;
        if (next != null) {
            return next;
        }
        synchronized (b) {   // rare: more connections lent at once than a block holds
            if (b.next == null) {
                b.next = new Block();
            }
            return b.next;
        }
    }
}
