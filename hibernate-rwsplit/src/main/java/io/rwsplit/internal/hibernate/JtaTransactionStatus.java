package io.rwsplit.internal.hibernate;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.rwsplit.spi.TransactionStatus;

/**
 * JTA transaction boundaries from the {@link TransactionSynchronizationRegistry}: an active (or
 * marked-for-rollback, or completing) transaction is identified by its transaction key.
 */
final class JtaTransactionStatus implements TransactionStatus {

    private final TransactionSynchronizationRegistry registry;

    JtaTransactionStatus(TransactionSynchronizationRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Object currentTransaction() {
        return switch (registry.getTransactionStatus()) {
            case Status.STATUS_NO_TRANSACTION, Status.STATUS_COMMITTED, Status.STATUS_ROLLEDBACK, Status.STATUS_UNKNOWN -> null;
            default -> registry.getTransactionKey();
        };
    }

    @Override
    public boolean afterCommit(Runnable afterCommit) {
        registry.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    afterCommit.run();
                }
            }
        });
        return true;
    }

    @Override
    public String toString() {
        return "JtaTransactionStatus[" + registry + "]";
    }
}
