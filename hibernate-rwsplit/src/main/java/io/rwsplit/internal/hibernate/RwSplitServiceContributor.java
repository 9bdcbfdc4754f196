package io.rwsplit.internal.hibernate;

import java.util.Map;

import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.engine.jdbc.connections.internal.ConnectionProviderInitiator;
import org.hibernate.service.spi.ServiceContributor;

import io.rwsplit.RwSplitSettings;

/**
 * Found through {@code META-INF/services}: installs initiators that wrap the connection provider when
 * (and only when) the {@code hibernate.rwsplit.*} settings ask for it, and, on Hibernate releases without
 * session extensions (7.2, 7.3), the one that attaches each session's routing part instead
 * (see {@link RwSplitSessions}). A registry whose settings name none of our keys keeps the initiators it has:
 * a host's own (Quarkus's static-init connection provider) is not replaced by Hibernate's.
 */
public final class RwSplitServiceContributor implements ServiceContributor {

    @Override
    public void contribute(StandardServiceRegistryBuilder builder) {
        if (namesOurKeys(builder.getSettings())) {
            RwSplitInitiators.around(ConnectionProviderInitiator.INSTANCE).forEach(builder::addInitiator);
        }
    }

    /** Any {@code hibernate.rwsplit.*} key: one that activates routing, or one the inactive initiator warns about. */
    private static boolean namesOurKeys(Map<String, Object> settings) {
        for (String key : settings.keySet()) {
            if (key.startsWith(RwSplitSettings.PREFIX)) {
                return true;
            }
        }
        return false;
    }
}
