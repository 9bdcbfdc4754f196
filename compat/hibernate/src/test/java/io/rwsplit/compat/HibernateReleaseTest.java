package io.rwsplit.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.hibernate.Version;
import org.junit.jupiter.api.Test;

import io.rwsplit.internal.hibernate.RwSplitSessions;

/**
 * The class path really holds the Hibernate ORM release the profile names, and the core takes the path for a
 * release without session extensions: without this the matrix could pass on the default release unnoticed.
 */
class HibernateReleaseTest {

    @Test
    void runsOnTheReleaseTheProfileNames() {
        String expected = System.getProperty("compat.hibernate.version");
        assertNotNull(expected, "system property compat.hibernate.version (set by the profile)");
        assertEquals(expected, Version.getVersionString());
    }

    @Test
    void usesTheSessionTrackingPathWhereSessionExtensionsDoNotExist() {
        assertFalse(RwSplitSessions.sessionExtensions(), "Hibernate " + Version.getVersionString()
                + " has no org.hibernate.engine.extension.spi.Extension");
    }
}
