package io.rwsplit.internal.health;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import org.junit.jupiter.api.Test;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * {@link ServerAddress}: a pool's connection is unwrapped to the driver's; a driver that does not move connections
 * says nothing. MariaDB Connector/J's address is read on the real driver by {@code FailoverIT}.
 */
class ServerAddressTest {

    @Test
    void aPoolsConnectionIsUnwrappedToTheDriversOwn() throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:mem:server-address;DB_CLOSE_DELAY=-1");
        config.setMaximumPoolSize(1);
        try (HikariDataSource pool = new HikariDataSource(config); Connection pooled = pool.getConnection()) {
            Connection driver = ServerAddress.driverConnection(pooled);
            assertSame(org.h2.jdbc.JdbcConnection.class, driver.getClass());
            assertSame(driver, ServerAddress.driverConnection(driver), "the driver's own connection is itself");
        }
    }

    @Test
    void aDriverThatDoesNotMoveConnectionsSaysNoAddress() throws SQLException {
        ServerAddress addresses = ServerAddress.ofDrivers();
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:server-address-2")) {
            assertNull(addresses.of(c));
            assertNull(addresses.of(c), "asked again, from what it learned of the class");
        }
    }
}
