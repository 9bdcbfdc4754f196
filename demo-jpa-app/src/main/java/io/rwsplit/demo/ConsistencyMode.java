package io.rwsplit.demo;

import java.util.Map;

import jakarta.persistence.EntityManager;

import io.rwsplit.RwSplit;
import io.rwsplit.RwSplitSettings;

/**
 * The two ways the demo runs each story. This enum is the demo's only contact with the consistency
 * API of hibernate-rwsplit: a default level for the persistence unit, and a scope key per request so
 * that a user's write in one request protects that user's reads in the next one (a new EntityManager).
 */
enum ConsistencyMode {

    /** Broken: any replica may answer, however far behind it is. */
    EVENTUAL("eventual"),

    /** Fixed: a user never reads data older than their own last write. */
    READ_YOUR_WRITES("read_your_writes");

    private final String setting;

    ConsistencyMode(String setting) {
        this.setting = setting;
    }

    /**
     * Properties added to the persistence unit: the default consistency level of its sessions, as it
     * would be written in persistence.xml ({@code hibernate.rwsplit.consistency}).
     */
    Map<String, Object> unitSettings() {
        return Map.of(RwSplitSettings.CONSISTENCY, setting);
    }

    /** Called at the start of every request (a new EntityManager) of the given user. */
    void beginRequest(EntityManager em, String userKey) {
        RwSplit.scope(em, userKey);
    }
}
