package io.rwsplit.demo;

import java.util.Map;

import jakarta.persistence.EntityManager;

/**
 * The two ways the demo runs each story. This enum is the demo's only contact with the consistency
 * API of hibernate-rwsplit (issue 4): a default level for the persistence unit, and a scope key per
 * request so that a user's write in one request protects that user's reads in the next one.
 */
enum ConsistencyMode {

    /** Broken: any replica may answer, however far behind it is. */
    EVENTUAL,

    /** Fixed: a user never reads data older than their own last write. */
    READ_YOUR_WRITES;

    /**
     * WAITING FOR ISSUE 4: {@code io.rwsplit.Consistency}, the {@code hibernate.rwsplit.consistency} setting
     * and {@code RwSplit.scope(EntityManager, String)} are not on main yet. Once they are, set this to
     * {@code true} and use the commented lines below.
     */
    static final boolean READ_YOUR_WRITES_AVAILABLE = false;

    /** Whether the library this demo was built against offers this mode. */
    boolean available() {
        return this == EVENTUAL || READ_YOUR_WRITES_AVAILABLE;
    }

    /** Properties added to the persistence unit for this mode. */
    Map<String, Object> unitSettings() {
        requireAvailable();
        return switch (this) {
            // Today's core sends every read outside a transaction to a replica: that is EVENTUAL.
            // With issue 4: Map.of("hibernate.rwsplit.consistency", "eventual")
            case EVENTUAL -> Map.of();
            // With issue 4: Map.of("hibernate.rwsplit.consistency", "read_your_writes")
            case READ_YOUR_WRITES -> Map.of();
        };
    }

    /** Called at the start of every request (a new EntityManager) of the given user. */
    void beginRequest(EntityManager em, String userKey) {
        requireAvailable();
        // With issue 4: RwSplit.scope(em, userKey);
    }

    private void requireAvailable() {
        if (!available()) {
            throw new UnsupportedOperationException(name() + " needs the consistency API of issue 4 "
                    + "(io.rwsplit.Consistency, RwSplit.scope), which this build of hibernate-rwsplit does not have yet");
        }
    }
}
