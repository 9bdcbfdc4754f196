package io.rwsplit.quarkus.it;

import javax.sql.DataSource;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;

import io.rwsplit.internal.hibernate.RoutingConnectionProvider;
import io.rwsplit.internal.replica.ReplicaNode;

/** The pool the core routes a unit's replica reads to: what the extension handed it. */
final class CorePools {

    private CorePools() {
    }

    static DataSource replicaPool(EntityManagerFactory factory, String replica) {
        RoutingConnectionProvider provider = factory.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                .requireService(ConnectionProvider.class).unwrap(RoutingConnectionProvider.class);
        return provider.router().replicas().nodes().stream().filter(n -> n.name().equals(replica))
                .map(ReplicaNode::dataSource).findFirst()
                .orElseThrow(() -> new AssertionError("no replica " + replica + " in " + provider.router().replicaNames()));
    }
}
