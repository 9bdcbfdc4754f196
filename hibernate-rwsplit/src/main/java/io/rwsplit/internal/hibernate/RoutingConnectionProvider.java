package io.rwsplit.internal.hibernate;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

import org.hibernate.dialect.Dialect;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.jdbc.connections.spi.DatabaseConnectionInfo;
import org.hibernate.engine.jdbc.env.spi.ExtractedDatabaseMetaData;
import org.hibernate.service.spi.Configurable;
import org.hibernate.service.spi.ServiceRegistryAwareService;
import org.hibernate.service.spi.ServiceRegistryImplementor;
import org.hibernate.service.spi.Startable;
import org.hibernate.service.spi.Stoppable;

import io.rwsplit.internal.config.RwSplitConfig;
import io.rwsplit.internal.consistency.ConsistencyRuntime;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.internal.route.Router;

/**
 * Wraps the connection provider the application configured for its primary (DriverManager, HikariCP,
 * Agroal, a DataSource, its own): hands Hibernate lazy {@link io.rwsplit.internal.route.RoutingConnection}s that
 * choose primary or replica per statement. Lifecycle calls are forwarded to the wrapped provider.
 */
public final class RoutingConnectionProvider
        implements ConnectionProvider, Configurable, Startable, Stoppable, ServiceRegistryAwareService {

    private final ConnectionProvider primary;
    private final RoutingRuntime runtime;
    private final Router router;
    private final ConsistencyRuntime consistency;

    /** @param primarySession what replica pools take from the primary: its pool's init SQL, its URL's session properties */
    RoutingConnectionProvider(ConnectionProvider primary, RwSplitConfig config, UnitSettings unit,
                              ConsistencyRuntime consistency, PrimarySession primarySession) {
        this.primary = primary;
        this.consistency = consistency;
        com.zaxxer.hikari.HikariDataSource pool = PrimaryInitSql.pool(primary);
        PrimarySource primarySource = new PrimarySource() {
            @Override
            public Connection acquire() throws SQLException {
                return primary.getConnection();
            }

            @Override
            public void release(Connection connection) throws SQLException {
                primary.closeConnection(connection);
            }

            @Override
            public void evict(Connection connection) {
                if (pool != null) {
                    pool.evictConnection(connection);   // only its own proxies; others are closed by the caller
                }
            }
        };
        this.runtime = RoutingRuntime.build("default", primarySource, primary.getClass().getSimpleName(), config, unit,
                consistency, primarySession);
        this.router = runtime.router();
    }

    /** The router, for the {@code RwSplit} facade. */
    public Router router() {
        return router;
    }

    /** The application's own provider for the primary. */
    public ConnectionProvider primaryProvider() {
        return primary;
    }

    @Override
    public Connection getConnection() {
        return router.open(false);
    }

    @Override
    public Connection getReadOnlyConnection() {
        return router.open(true);
    }

    @Override
    public void closeConnection(Connection connection) throws SQLException {
        connection.close();
    }

    @Override
    public void closeReadOnlyConnection(Connection connection) throws SQLException {
        connection.close();
    }

    /** Never: releasing after each statement inside a resource-local transaction loses its atomicity. */
    @Override
    public boolean supportsAggressiveRelease() {
        return false;
    }

    @Override
    public DatabaseConnectionInfo getDatabaseConnectionInfo(Dialect dialect) {
        return primary.getDatabaseConnectionInfo(dialect);
    }

    @Override
    public DatabaseConnectionInfo getDatabaseConnectionInfo(Dialect dialect, ExtractedDatabaseMetaData metaData) {
        return primary.getDatabaseConnectionInfo(dialect, metaData);
    }

    @Override
    public boolean isUnwrappableAs(Class<?> unwrapType) {
        return unwrapType.isInstance(this) || primary.isUnwrappableAs(unwrapType);
    }

    @Override
    public <T> T unwrap(Class<T> unwrapType) {
        return unwrapType.isInstance(this) ? unwrapType.cast(this) : primary.unwrap(unwrapType);
    }

    @Override
    public void injectServices(ServiceRegistryImplementor serviceRegistry) {
        if (primary instanceof ServiceRegistryAwareService aware) {
            aware.injectServices(serviceRegistry);
        }
    }

    @Override
    public void configure(Map<String, Object> configValues) {
        if (primary instanceof Configurable configurable) {
            configurable.configure(configValues);
        }
    }

    @Override
    public void start() {
        if (primary instanceof Startable startable) {
            startable.start();
        }
        runtime.start();
    }

    @Override
    public void stop() {
        try {
            runtime.close();
            consistency.close();
        }
        finally {
            if (primary instanceof Stoppable stoppable) {
                stoppable.stop();
            }
        }
    }
}
