package io.rwsplit.internal.config;

/** What a read does when no replica is healthy. */
public enum Fallback {
    /** Read from the primary, reason {@code NO_HEALTHY_REPLICA}. */
    PRIMARY,
    /** Fail with a clear {@link java.sql.SQLException}. */
    FAIL
}
