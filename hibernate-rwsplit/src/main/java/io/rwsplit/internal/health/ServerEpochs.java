package io.rwsplit.internal.health;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What a server told us is true only of the server that told it. Each server (here: by index) has an epoch.
 * Whoever learns a fact about a server (the position it has replayed, ...) reads {@link #current} <em>before</em>
 * asking and keeps the fact with that epoch; a fact is used only while {@link #isCurrent} says its epoch still
 * is. Whoever sees that the server may no longer be the one that answered (a lost connection, a failed probe, a
 * position that went backwards after a restart, a new timeline, a failover) calls {@link #forget}: every fact
 * learned before is dropped at once, without anyone finding and clearing each one, and a fact learned during
 * the change cannot sneak back in.
 * <p>
 * Thread-safe and lock-free: checking a fact is one volatile read.
 */
public final class ServerEpochs {

    private final AtomicLongArray epochs;

    /** @param servers how many servers, numbered from 0 */
    public ServerEpochs(int servers) {
        this.epochs = new AtomicLongArray(servers);
    }

    public int size() {
        return epochs.length();
    }

    /** The epoch of {@code server} now: note it before asking the server anything. */
    public long current(int server) {
        return epochs.get(server);
    }

    /** Whether a fact learned about {@code server} in {@code epoch} still holds. */
    public boolean isCurrent(int server, long epoch) {
        return epochs.get(server) == epoch;
    }

    /** Drops everything learned about {@code server} so far; returns the new epoch. */
    public long forget(int server) {
        return epochs.incrementAndGet(server);
    }
}
