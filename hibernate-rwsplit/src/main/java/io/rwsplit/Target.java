package io.rwsplit;

/** Where a statement was sent. */
public enum Target {
    PRIMARY,
    REPLICA
}
