package io.rwsplit.internal.hibernate;

import java.util.ArrayList;
import java.util.List;

import org.hibernate.boot.registry.StandardServiceInitiator;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;

/**
 * The service initiators that switch routing on, for {@link RwSplitServiceContributor} and for hosts that build the
 * service registry from their own list and ignore service contributors at run time (Quarkus, whose runtime registry
 * takes initiators from a {@code HibernateOrmIntegrationRuntimeInitListener}). Each one returns what the host would
 * have built while {@code hibernate.rwsplit.replicas} (or {@code tenants}) is not set.
 */
public final class RwSplitInitiators {

    private RwSplitInitiators() {
    }

    /**
     * @param primaryInitiator the initiator the host uses for its connection provider (Hibernate's
     *                         {@code ConnectionProviderInitiator.INSTANCE}, or a host's own): the routing provider
     *                         wraps what it builds
     * @return the connection provider initiator, the multi-tenant one and, on Hibernate releases without session
     *         extensions (7.2, 7.3), the one that attaches each session's routing part
     */
    public static List<StandardServiceInitiator<?>> around(StandardServiceInitiator<ConnectionProvider> primaryInitiator) {
        List<StandardServiceInitiator<?>> initiators = new ArrayList<>(3);
        initiators.add(new RoutingConnectionProviderInitiator(primaryInitiator));
        initiators.add(new RoutingMultiTenantConnectionProviderInitiator());
        if (!RwSplitSessions.sessionExtensions()) {
            initiators.add(new SessionTrackingCoordinatorBuilderInitiator());
        }
        return List.copyOf(initiators);
    }
}
