package io.rwsplit.internal.balance;

import io.rwsplit.spi.ReplicaView;

/** A candidate with fixed properties. */
record Replica(String name, int weight, int tier, long lagMicros, int inFlight) implements ReplicaView {

    static Replica named(String name) {
        return new Replica(name, 1, 1, 0, 0);
    }

    static Replica weighted(String name, int weight) {
        return new Replica(name, weight, 1, 0, 0);
    }
}
