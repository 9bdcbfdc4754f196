package io.rwsplit.internal.hibernate;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import javax.sql.DataSource;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.balance.LoadBalancers;
import io.rwsplit.internal.config.DriverTimeouts;
import io.rwsplit.internal.config.ReplicaConfig;
import io.rwsplit.internal.config.RwSplitConfig;
import io.rwsplit.internal.config.Secrets;
import io.rwsplit.internal.config.UrlSessionProperties;
import io.rwsplit.internal.replica.PoolControl;
import io.rwsplit.internal.replica.ReplicaNode;
import io.rwsplit.internal.replica.ReplicaSet;
import io.rwsplit.spi.Clock;

/**
 * Builds the replica set of a configuration: one HikariCP pool per replica given by URL (read-only,
 * never failing startup when the replica is down), or the application's own DataSource.
 */
final class ReplicaPools implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicaPools.class);

    private final ReplicaSet replicaSet;
    private final List<HikariDataSource> owned;

    private ReplicaPools(ReplicaSet replicaSet, List<HikariDataSource> owned) {
        this.replicaSet = replicaSet;
        this.owned = owned;
    }

    /**
     * How long a read on a MariaDB Connector/J replica connection waits for the server at least (its socket
     * timeout): that driver cannot abort a read in flight, so this bounds what a replica that stops answering costs.
     */
    static final Duration MARIADB_READ_TIMEOUT = Duration.ofMinutes(5);

    /** @param primary what replica pools take from the primary (its init SQL, its URL's session properties), or null */
    static ReplicaPools build(String label, RwSplitConfig config, Clock clock, PrimarySession primary) {
        return build(label, config, clock, primary, null);
    }

    /**
     * @param primary      what replica pools take from the primary: its pool's init SQL, run by replica pools that
     *                     configure none, and its URL's session properties ({@link UrlSessionProperties}); or null
     * @param queryTimeout the unit's query timeout ({@code jakarta.persistence.query.timeout}), or null
     */
    static ReplicaPools build(String label, RwSplitConfig config, Clock clock, PrimarySession primary,
                              Duration queryTimeout) {
        PrimarySession inherited = primary == null ? PrimarySession.NONE : primary;
        // a read's socket must outlast the query's own timeout and the monitor's detection of a silent replica
        Duration detection = config.health().probeTimeout().plus(config.health().probeInterval())
                .multipliedBy(config.health().failureThreshold());
        Duration readTimeout = queryTimeout == null || queryTimeout.plus(detection).compareTo(MARIADB_READ_TIMEOUT) < 0
                ? MARIADB_READ_TIMEOUT : queryTimeout.plus(detection);
        List<ReplicaNode> nodes = new ArrayList<>();
        List<HikariDataSource> owned = new ArrayList<>();
        try {
            for (ReplicaConfig replica : config.replicas()) {
                DataSource ds = replica.dataSource();
                // an application's HikariCP pool set to lend read-only connections needs no switch (nor its question)
                boolean setReadOnly = !(ds instanceof HikariDataSource given && given.isReadOnly());
                if (ds == null) {
                    HikariDataSource pool = new HikariDataSource(hikariConfig(label, replica, config.poolProperties(),
                            inherited, readTimeout));
                    owned.add(pool);
                    ds = pool;
                    setReadOnly = false;
                }
                nodes.add(new ReplicaNode(nodes.size(), replica.name(), replica.weight(), replica.tier(), ds, setReadOnly,
                        ds instanceof HikariDataSource hikari ? control(hikari) : null));
            }
        }
        catch (RuntimeException e) {
            owned.forEach(HikariDataSource::close);
            throw e;
        }
        ReplicaSet set = new ReplicaSet(label, nodes, LoadBalancers.create(config.loadBalancer(), nodes), clock,
                io.rwsplit.internal.health.HealthPolicy.of(config.health()));
        return new ReplicaPools(set, owned);
    }

    private static HikariConfig hikariConfig(String label, ReplicaConfig replica, Properties poolProperties,
                                             PrimarySession primary, Duration readTimeout) {
        Properties props = new Properties();
        props.setProperty("minimumIdle", "1");
        props.setProperty("connectionTimeout", "2000");
        props.putAll(poolProperties);
        HikariConfig hc;
        try {
            hc = new HikariConfig(props);
        }
        catch (RuntimeException e) {
            throw new ConnectionProviderConfigurationException("hibernate-rwsplit: invalid replica pool setting under '"
                    + RwSplitSettings.POOL_PREFIX + "' " + Secrets.shown(poolProperties) + ": " + Secrets.scrub(e.getMessage()), e);
        }
        if (replica.user() != null) {
            hc.setUsername(replica.user());
        }
        if (replica.password() != null) {
            hc.setPassword(replica.password());
        }
        hc.setPoolName("rwsplit-" + label + "-" + replica.name());
        Properties given = new Properties();     // the driver properties the user set: they win
        given.putAll(hc.getDataSourceProperties());
        // the primary URL's session properties, appended to the replica URL as written: its driver decodes them alike
        Map<String, String> session = UrlSessionProperties.inherited(primary.url(), replica.url(), given);
        hc.setJdbcUrl(UrlSessionProperties.with(replica.url(), session));
        if (!session.isEmpty()) {
            log.info("hibernate-rwsplit [{}]: replica '{}' inherits the session properties {} of the primary's JDBC URL",
                    label, replica.name(), session.keySet());
        }
        // a connection the pool cannot make within its connectionTimeout is of no use to a read; bounding the driver's
        // connect also bounds MariaDB Connector/J's abort of a connection to a frozen replica (it connects to send KILL)
        if (hc.getConnectionTimeout() > 0 && hc.getConnectionTimeout() < Integer.MAX_VALUE) {
            DriverTimeouts.connectForUrl(replica.url(), Duration.ofMillis(hc.getConnectionTimeout()), given)
                    .forEach((key, value) -> hc.addDataSourceProperty((String) key, value));
        }
        DriverTimeouts.readForUrl(replica.url(), readTimeout, given)
                .forEach((key, value) -> hc.addDataSourceProperty((String) key, value));
        if (hc.getConnectionInitSql() == null && primary.initSql() != null) {
            hc.setConnectionInitSql(primary.initSql());     // replica sessions start like the primary's
        }
        hc.setReadOnly(true);
        hc.setAutoCommit(true);
        // an unreachable replica must not stop the application: connect lazily, fail reads over
        hc.setInitializationFailTimeout(-1);
        return hc;
    }

    /** What routing may ask of a HikariCP pool: its init SQL, and to close a connection for good. */
    private static PoolControl control(HikariDataSource pool) {
        return new PoolControl() {
            /** HikariCP opens its connections in this mode and sets it back on return when a borrower changed it. */
            @Override
            public boolean lendsAutoCommit() {
                return pool.isAutoCommit();   // asked each time: an application's pool may change it until it starts
            }

            @Override
            public String initSql() {
                return pool.getConnectionInitSql();
            }

            @Override
            public void evict(Connection connection) {
                pool.evictConnection(connection);
            }

            @Override
            public boolean holdsConnections() {
                var mxBean = pool.getHikariPoolMXBean();
                return mxBean == null || mxBean.getTotalConnections() > 0;
            }
        };
    }

    ReplicaSet replicaSet() {
        return replicaSet;
    }

    @Override
    public void close() {
        for (HikariDataSource pool : owned) {
            pool.close();
        }
    }
}
