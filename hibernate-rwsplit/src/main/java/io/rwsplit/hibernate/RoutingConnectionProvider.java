package io.rwsplit.hibernate;

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.config.RwSplitConfig;
import io.rwsplit.health.ReplicaMonitor;
import io.rwsplit.consistency.CausalReads;
import io.rwsplit.consistency.ConsistencyRuntime;
import io.rwsplit.route.PrimarySource;
import io.rwsplit.route.Router;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.RoutingIntentSource;
import io.rwsplit.spi.TransactionStatus;

/**
 * Wraps the connection provider the application configured for its primary (DriverManager, HikariCP,
 * Agroal, a DataSource, its own): hands Hibernate lazy {@link io.rwsplit.route.RoutingConnection}s that
 * choose primary or replica per statement. Lifecycle calls are forwarded to the wrapped provider.
 */
public final class RoutingConnectionProvider
        implements ConnectionProvider, Configurable, Startable, Stoppable, ServiceRegistryAwareService {

    private static final Logger log = LoggerFactory.getLogger(RoutingConnectionProvider.class);

    private final ConnectionProvider primary;
    private final ReplicaPools replicas;
    private final Router router;
    private final ReplicaMonitor monitor;
    private final ConsistencyRuntime consistency;

    RoutingConnectionProvider(ConnectionProvider primary, RwSplitConfig config, ConsistencyRuntime consistency, Clock clock) {
        this(primary, config, consistency, clock, TransactionStatus.NONE, RoutingIntentSource.NONE, null);
    }

    /** @param primaryInitSql the primary pool's init SQL, which replica pools without their own run too, or null */
    RoutingConnectionProvider(ConnectionProvider primary, RwSplitConfig config, ConsistencyRuntime consistency, Clock clock,
                              TransactionStatus transactionStatus, RoutingIntentSource intentSource, String primaryInitSql) {
        this.primary = primary;
        this.consistency = consistency;
        this.replicas = ReplicaPools.build("default", config, clock, primaryInitSql);
        PrimarySource primarySource = new PrimarySource() {
            @Override
            public Connection acquire() throws SQLException {
                return primary.getConnection();
            }

            @Override
            public void release(Connection connection) throws SQLException {
                primary.closeConnection(connection);
            }
        };
        primarySource = ReplicaMonitor.protect("default", primarySource, config.health(), clock);
        this.router = new Router("default", primarySource, replicas.replicaSet(), config.fallback(),
                new CausalReads(consistency, "default", replicas.replicaSet().epochs()),
                transactionStatus, intentSource, config.health());
        CausalReads causal = router.causal();
        this.monitor = new ReplicaMonitor(replicas.replicaSet(), config.replicas(), config.health(), primarySource, clock,
                causal::observed, causal::primaryChanged);
        log.info("hibernate-rwsplit: routing between the primary ({}) and replicas {}; {}; {}",
                primary.getClass().getSimpleName(), config.replicas(), consistency.config().describe(),
                io.rwsplit.health.LagProbes.describe(config.health(), config.replicas()));
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
        monitor.start();
    }

    @Override
    public void stop() {
        try {
            monitor.close();
            replicas.close();
            consistency.close();
        }
        finally {
            if (primary instanceof Stoppable stoppable) {
                stoppable.stop();
            }
        }
    }
}
