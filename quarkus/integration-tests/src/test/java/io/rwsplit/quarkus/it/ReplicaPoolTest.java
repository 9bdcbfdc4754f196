package io.rwsplit.quarkus.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.AgroalConnectionPoolConfiguration;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A replica given as a URL ({@code quarkus.rwsplit.replicas}) is served by an Agroal pool configured like the unit's
 * datasource, not by a HikariCP pool of the core.
 */
@QuarkusTest
class ReplicaPoolTest {

    @Inject
    EntityManagerFactory factory;

    @Inject
    AgroalDataSource primary;

    @Inject
    People people;

    @Test
    void aUrlReplicaIsServedByAnAgroalPoolConfiguredLikeThePrimary() {
        AgroalDataSource replica = assertInstanceOf(AgroalDataSource.class, CorePools.replicaPool(factory, "replica1"));

        AgroalConnectionPoolConfiguration pool = replica.getConfiguration().connectionPoolConfiguration();
        AgroalConnectionPoolConfiguration primaryPool = primary.getConfiguration().connectionPoolConfiguration();
        assertTrue(pool.connectionFactoryConfiguration().jdbcUrl().startsWith("jdbc:h2:mem:quarkus_replica;"));
        assertEquals(primaryPool.maxSize(), pool.maxSize());
        assertEquals(primaryPool.acquisitionTimeout(), pool.acquisitionTimeout());
        assertEquals(primaryPool.connectionFactoryConfiguration().principal().getName(),
                pool.connectionFactoryConfiguration().principal().getName());
    }

    @Test
    void replicaConnectionsGoBackToTheirPoolAfterReads() {
        AgroalDataSource replica = (AgroalDataSource) CorePools.replicaPool(factory, "replica1");
        long destroyed = replica.getMetrics().destroyCount();
        long created = replica.getMetrics().creationCount();

        for (int i = 0; i < 5; i++) {
            assertEquals("replica-alice", people.nameOf(1L));
        }

        assertEquals(destroyed, replica.getMetrics().destroyCount(), "no connection discarded at its return");
        assertTrue(replica.getMetrics().creationCount() - created <= 1, "one connection serves the five reads");
    }
}
