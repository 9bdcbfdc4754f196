package io.rwsplit.demo;

import jakarta.persistence.EntityManager;

/**
 * A user journey of two requests: a write, then a read in a new request (a new EntityManager) that
 * must show that write.
 */
interface Story {

    /** A short name for the report. */
    String title();

    /**
     * The first request: the user's write, inside the transaction the runner opened. Returns the check
     * the next request makes.
     */
    ReadBack write(EntityManager em, long userId);

    /** The second request. */
    @FunctionalInterface
    interface ReadBack {
        /** Reads as the application would and tells whether the user sees their own write. */
        boolean seesOwnWrite(EntityManager em);
    }
}
