package io.rwsplit.internal.consistency;

/**
 * A store that answers again holds reads back for a moment (the scope's state is unknown), so that writes other
 * instances kept while it was away reach it first. Not a failure: {@link ConsistencyRuntime} does not report it.
 */
final class StoreSettlingException extends IllegalStateException {

    StoreSettlingException(String message) {
        super(message);
    }
}
