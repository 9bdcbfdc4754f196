package io.rwsplit.quarkus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.agroal.api.configuration.AgroalConnectionFactoryConfiguration;
import io.agroal.api.configuration.AgroalConnectionPoolConfiguration;
import io.agroal.api.configuration.AgroalDataSourceConfiguration;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;

/** A replica pool for a URL is the primary's pool configuration with another URL, outside JTA. */
class ReplicaPoolsTest {

    /** Stands for the JDBC driver class. */
    private static final class Driver {
    }

    @Test
    void replicaPoolKeepsThePrimarysDriverCredentialsSizesAndTimeoutsWithItsOwnUrl() {
        AgroalDataSourceConfiguration primary = new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(pool -> pool.minSize(2).maxSize(7).acquisitionTimeout(Duration.ofSeconds(3))
                        .transactionRequirement(AgroalConnectionPoolConfiguration.TransactionRequirement.WARN)
                        .connectionFactoryConfiguration(f -> f.jdbcUrl("jdbc:h2:mem:primary")
                                .connectionProviderClass(Driver.class).principal(new NamePrincipal("app"))
                                .initialSql("SET TIME ZONE 'UTC'")))
                .get();

        AgroalDataSourceConfiguration replica = ReplicaPools.configuration(primary, "jdbc:h2:mem:replica");

        AgroalConnectionPoolConfiguration pool = replica.connectionPoolConfiguration();
        AgroalConnectionFactoryConfiguration factory = pool.connectionFactoryConfiguration();
        assertEquals("jdbc:h2:mem:replica", factory.jdbcUrl());
        assertSame(Driver.class, factory.connectionProviderClass());
        assertEquals(new NamePrincipal("app").getName(), factory.principal().getName());
        assertEquals("SET TIME ZONE 'UTC'", factory.initialSql());
        assertFalse(factory.readOnly(), "the core sets each connection read-only and back: a read-only pool refuses it");
        assertTrue(factory.autoCommit());
        assertEquals(2, pool.minSize());
        assertEquals(7, pool.maxSize());
        assertEquals(Duration.ofSeconds(3), pool.acquisitionTimeout());
        assertSame(ReplicaPools.NO_TRANSACTIONS, pool.transactionIntegration());
        assertEquals(AgroalConnectionPoolConfiguration.TransactionRequirement.OFF, pool.transactionRequirement());
        assertNotSame(primary.connectionPoolConfiguration().connectionCache(), pool.connectionCache(),
                "a pool's thread cache holds its own connections");
        assertEquals("jdbc:h2:mem:primary",
                primary.connectionPoolConfiguration().connectionFactoryConfiguration().jdbcUrl(), "the primary's is unchanged");
    }
}
