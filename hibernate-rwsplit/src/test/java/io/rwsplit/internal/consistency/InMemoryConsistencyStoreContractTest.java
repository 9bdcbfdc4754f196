package io.rwsplit.internal.consistency;

import java.time.Duration;

import io.rwsplit.spi.ConsistencyStore;
import io.rwsplit.testing.FakeClock;

class InMemoryConsistencyStoreContractTest extends ConsistencyStoreContract {

    private final ConsistencyStore store = new InMemoryConsistencyStore(new FakeClock(), Duration.ofMinutes(1), 1000);

    @Override
    protected ConsistencyStore store() {
        return store;
    }
}
