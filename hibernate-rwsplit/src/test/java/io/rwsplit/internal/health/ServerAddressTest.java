package io.rwsplit.internal.health;

import static org.junit.jupiter.api.Assertions.assertNotNull;
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
 * says nothing; MariaDB Connector/J's connection class has the address getter (its value is read on the real driver
 * by {@code FailoverIT}).
 */
class ServerAddressTest {

    private static HikariDataSource pool(String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
        config.setMaximumPoolSize(1);
        return new HikariDataSource(config);
    }

    @Test
    void aPoolsConnectionIsUnwrappedToTheDriversOwn() throws SQLException {
        try (HikariDataSource pool = pool("server-address"); Connection pooled = pool.getConnection()) {
            Connection driver = ServerAddress.ofDrivers().driverConnection(pooled);
            assertSame(org.h2.jdbc.JdbcConnection.class, driver.getClass());
            assertSame(driver, ServerAddress.unwrapped(driver), "the driver's own connection is itself");
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

    @Test
    void mariaDbConnectorJSaysWhichHostAConnectionIsOn() {
        assertNotNull(DriverAddresses.addressOf(org.mariadb.jdbc.Connection.class));
    }
}
