package io.rwsplit.spi;

import io.rwsplit.position.ConsistencyToken;

/**
 * Where the last committed write of each consistency scope is kept, so that later sessions (possibly
 * in other application instances) of the same scope read their own writes. Built in: {@code memory}
 * (one JVM, bounded, entries expire) and {@code redis} (shared). Implementations are thread-safe.
 * <p>
 * Selected by {@link io.rwsplit.RwSplitSettings#CONSISTENCY_STORE}: a built-in name, a class name with a
 * public no-argument constructor, or an instance in the settings map.
 */
public interface ConsistencyStore {

    /**
     * The write a reader of {@code scope} must see: the merge of the writes recorded for it that have
     * not expired, or {@code null} when none is known.
     *
     * @throws RuntimeException when the store cannot be reached; the caller then treats the scope's state as
     *                          unknown and reads from the primary
     */
    ConsistencyToken read(String scope);

    /**
     * Records a committed write of {@code scope}. The store keeps at least the newest write and must never
     * let a later {@link #read} return a token older than the one recorded here (until it expires).
     *
     * @throws RuntimeException when the store cannot be reached
     */
    void record(String scope, ConsistencyToken write);
}
