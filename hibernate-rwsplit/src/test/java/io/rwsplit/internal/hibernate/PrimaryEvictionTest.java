package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

import org.hibernate.hikaricp.internal.HikariCPConnectionProvider;
import org.junit.jupiter.api.Test;

import com.zaxxer.hikari.HikariDataSource;

import io.rwsplit.internal.health.ServerAddress;

/**
 * A primary connection its driver moved to a replica is closed by the primary's pool instead of lent again: the pool
 * behind Hibernate's HikariCP provider is found, and a connection it evicts while lent is not lent again.
 */
class PrimaryEvictionTest {

    @Test
    void aConnectionThePrimarysPoolEvictsWhileLentIsNotLentAgain() throws SQLException {
        HikariCPConnectionProvider provider = new HikariCPConnectionProvider();
        provider.configure(Map.of("hibernate.connection.url", "jdbc:h2:mem:primary-eviction;DB_CLOSE_DELAY=-1",
                "hibernate.hikari.maximumPoolSize", "1"));
        try {
            HikariDataSource pool = PrimaryInitSql.pool(provider);
            assertNotNull(pool, "the pool behind Hibernate's HikariCP provider");
            Connection kept = provider.getConnection();
            Connection driver = ServerAddress.unwrapped(kept);
            provider.closeConnection(kept);
            Connection again = provider.getConnection();
            assertSame(driver, ServerAddress.unwrapped(again), "a pool of one lends its connection again");

            pool.evictConnection(again);
            provider.closeConnection(again);
            Connection next = provider.getConnection();
            assertNotSame(driver, ServerAddress.unwrapped(next), "the evicted connection is not lent again");
            provider.closeConnection(next);
        }
        finally {
            provider.stop();
        }
    }
}
