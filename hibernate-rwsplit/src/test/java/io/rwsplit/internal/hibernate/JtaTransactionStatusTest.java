package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.junit.jupiter.api.Test;

class JtaTransactionStatusTest {

    /** A registry that keeps the interposed synchronizations it is given (a JTA transaction manager calls them). */
    private static final class Registry implements TransactionSynchronizationRegistry {
        final List<Synchronization> interposed = new ArrayList<>();

        @Override
        public Object getTransactionKey() {
            return "tx";
        }

        @Override
        public void putResource(Object key, Object value) {
        }

        @Override
        public Object getResource(Object key) {
            return null;
        }

        @Override
        public void registerInterposedSynchronization(Synchronization sync) {
            interposed.add(sync);
        }

        @Override
        public int getTransactionStatus() {
            return Status.STATUS_ACTIVE;
        }

        @Override
        public void setRollbackOnly() {
        }

        @Override
        public boolean getRollbackOnly() {
            return false;
        }
    }

    @Test
    void anActionAfterTheCommitRunsOnlyWhenTheTransactionCommitted() {
        Registry registry = new Registry();
        JtaTransactionStatus status = new JtaTransactionStatus(registry);
        AtomicInteger runs = new AtomicInteger();
        assertTrue(status.afterCommit(runs::incrementAndGet));
        assertTrue(status.afterCommit(runs::incrementAndGet));
        registry.interposed.get(0).beforeCompletion();
        assertEquals(0, runs.get(), "not before the completion");
        registry.interposed.get(0).afterCompletion(Status.STATUS_ROLLEDBACK);
        assertEquals(0, runs.get(), "never after a rollback");
        registry.interposed.get(1).afterCompletion(Status.STATUS_COMMITTED);
        assertEquals(1, runs.get());
    }
}
