package io.rwsplit.spi;

/**
 * Tells the routing connection whether the calling thread runs inside a transaction that is managed
 * outside JDBC, typically a JTA transaction: JTA never calls {@code Connection#setAutoCommit(false)},
 * so without this hook a read inside a JTA transaction would look like an autocommit read and could go
 * to a replica.
 * <p>
 * Configured by {@link io.rwsplit.RwSplitSettings#TRANSACTION_STATUS}; a
 * {@code jakarta.transaction.TransactionSynchronizationRegistry} placed there is adapted automatically.
 * Called once per statement while the connection is in autocommit mode, on the thread that runs the
 * statement: implementations must be cheap and must not block.
 */
@FunctionalInterface
public interface TransactionStatus {

    /**
     * The transaction the calling thread takes part in, as a key that is equal (by {@code equals}) for
     * every call within the same transaction and differs between transactions; {@code null} when the
     * thread runs outside any such transaction.
     */
    Object currentTransaction();

    /**
     * Runs {@code afterCommit} once the calling thread's current transaction has committed (never when it rolls
     * back), on the thread that completes it; {@code false} when this status cannot (then the caller acts now). The
     * routing connection uses it to read the position of a JTA transaction's writes after its commit when Hibernate
     * releases the connection before the transaction completes; the adapter of a
     * {@code TransactionSynchronizationRegistry} registers an interposed synchronization. Without it such a write's
     * position is read at the release, before the commit, and a read that follows may miss the write.
     */
    default boolean afterCommit(Runnable afterCommit) {
        return false;
    }

    /** No transactions besides the JDBC ones (the default). */
    TransactionStatus NONE = () -> null;
}
