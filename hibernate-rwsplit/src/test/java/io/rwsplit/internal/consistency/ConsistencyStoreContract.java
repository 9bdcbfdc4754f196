package io.rwsplit.internal.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.GtidPosition;
import io.rwsplit.spi.ConsistencyStore;

/** What every {@link ConsistencyStore} must do; each implementation's test extends this. */
public abstract class ConsistencyStoreContract {

    /** The store under test (a fresh one or one with unique keys per test). */
    protected abstract ConsistencyStore store();

    private final String scope = "scope-" + UUID.randomUUID();

    @Test
    void aScopeWithoutWritesReadsAsNull() {
        assertNull(store().read(scope));
    }

    @Test
    void readsWhatWasRecorded() {
        ConsistencyToken t = ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-42"), 1_000);
        store().record(scope, t);
        assertEquals(t, store().read(scope));
    }

    @Test
    void neverGoesBackwardsWhenWritesArriveOutOfOrder() {
        store().record(scope, ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-50"), 2_000));
        store().record(scope, ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-40,1-2-3"), 1_000));
        ConsistencyToken read = store().read(scope);
        assertEquals(2_000, read.commitTimeMicros());
        assertEquals(GtidPosition.parseMariaDb("0-1-50,1-2-3"), read.positionOrNull());
    }

    @Test
    void keepsMySqlSetsExactly() {
        GtidPosition set = GtidPosition.parseMySql("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7");
        store().record(scope, ConsistencyToken.of(set, 5));
        assertEquals(set, store().read(scope).positionOrNull());
    }

    @Test
    void scopesAreIndependent() {
        store().record(scope, ConsistencyToken.withoutPosition(7));
        assertNull(store().read(scope + "-other"));
    }
}
