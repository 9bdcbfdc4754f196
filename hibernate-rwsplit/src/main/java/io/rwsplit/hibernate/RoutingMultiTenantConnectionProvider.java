package io.rwsplit.hibernate;

import static io.rwsplit.RwSplitSettings.TENANTS;
import static io.rwsplit.RwSplitSettings.TENANT_PREFIX;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.service.spi.Stoppable;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.rwsplit.config.RwSplitConfig;
import io.rwsplit.health.ReplicaMonitor;
import io.rwsplit.consistency.CausalReads;
import io.rwsplit.consistency.ConsistencyRuntime;
import io.rwsplit.config.Settings;
import io.rwsplit.config.SettingsTable;
import io.rwsplit.route.PrimarySource;
import io.rwsplit.route.Router;
import io.rwsplit.spi.Clock;

/**
 * Multi-tenancy with one primary and its own replicas per tenant identifier, all routed by the same
 * code as the single-primary provider. Configured by {@code hibernate.rwsplit.tenants}.
 */
public final class RoutingMultiTenantConnectionProvider implements MultiTenantConnectionProvider<Object>, Stoppable {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RoutingMultiTenantConnectionProvider.class);

    private final Map<String, Router> routers = new LinkedHashMap<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    RoutingMultiTenantConnectionProvider(Map<String, Object> settings, Clock clock) {
        Settings.check(settings);
        Settings s = new Settings(settings);
        String list = s.string(TENANTS, null);
        if (list == null) {
            throw Settings.invalid(TENANTS, settings.get(TENANTS), "one or more tenant identifiers separated by whitespace");
        }
        io.rwsplit.spi.TransactionStatus transactionStatus = RoutingHooks.transactionStatus(settings);
        io.rwsplit.spi.RoutingIntentSource intentSource = RoutingHooks.intentSource(settings);
        ConsistencyRuntime consistency = ConsistencyRuntime.create(settings, clock);
        closeables.add(consistency);
        try {
            for (String tenant : list.trim().split("\\s+")) {
                String p = TENANT_PREFIX + tenant + ".";
                String url = s.string(SettingsTable.TENANT_URL, p + "url");
                if (url == null || !url.startsWith("jdbc:")) {
                    throw Settings.invalid(p + "url", url, "the JDBC URL of tenant '" + tenant + "''s primary");
                }
                String user = s.string(SettingsTable.TENANT_USER, p + "user");
                String password = s.string(SettingsTable.TENANT_PASSWORD, p + "password");
                RwSplitConfig config = RwSplitConfig.fromReplicaList(s, p + "replicas", p + "replica.", user, password, url);
                HikariConfig hc = new HikariConfig();
                hc.setJdbcUrl(url);
                hc.setUsername(user);
                hc.setPassword(password);
                hc.setPoolName("rwsplit-" + tenant + "-primary");
                hc.setMinimumIdle(1);
                HikariDataSource primaryPool = new HikariDataSource(hc);
                closeables.add(primaryPool);
                ReplicaPools replicas = ReplicaPools.build(tenant, config, clock);
                closeables.add(replicas);
                PrimarySource primarySource = ReplicaMonitor.protect(tenant, new PrimarySource() {
                    @Override
                    public Connection acquire() throws SQLException {
                        return primaryPool.getConnection();
                    }

                    @Override
                    public void release(Connection connection) throws SQLException {
                        connection.close();
                    }
                }, config.health(), clock);
                CausalReads causal = new CausalReads(consistency, tenant, replicas.replicaSet().nodes().size());
                routers.put(tenant, new Router(tenant, primarySource, replicas.replicaSet(), config.fallback(), causal,
                        transactionStatus, intentSource));
                log.info("hibernate-rwsplit: tenant {}: routing between the primary ({}) and replicas {}; {}; {}", tenant,
                        url, config.replicas(), consistency.config().describe(),
                        io.rwsplit.health.LagProbes.describe(config.health(), config.replicas()));
                // closed first on stop, while the pools still work
                closeables.add(0, new ReplicaMonitor(replicas.replicaSet(), config.replicas(), config.health(),
                        primarySource, clock, (position, index) -> causal.observed(index, position)).start());
            }
            for (String key : s.keysWithPrefix(TENANT_PREFIX)) {
                String rest = key.substring(TENANT_PREFIX.length());
                int dot = rest.indexOf('.');
                String tenant = dot < 0 ? rest : rest.substring(0, dot);
                String option = dot < 0 ? "" : rest.substring(dot + 1);
                if (!routers.containsKey(tenant)) {
                    throw new ConnectionProviderConfigurationException("hibernate-rwsplit: setting '" + key
                            + "' names tenant '" + tenant + "', which is not listed in '" + TENANTS + "' " + routers.keySet());
                }
                if (!SettingsTable.TENANT_OPTIONS.contains(option) && !option.startsWith("replica.")
                        && !io.rwsplit.config.ReplicaList.isIndexedKey("replicas", option)) {
                    throw new ConnectionProviderConfigurationException("hibernate-rwsplit: unknown setting '" + key
                            + "': tenant options are " + SettingsTable.TENANT_OPTIONS + " and replica.NAME.*");
                }
            }
        }
        catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    /** The router of a tenant, or {@code null} for an unknown tenant. */
    public Router router(Object tenantIdentifier) {
        return routers.get(String.valueOf(tenantIdentifier));
    }

    /** The routers by tenant, in configuration order. */
    public Map<String, Router> routers() {
        return java.util.Collections.unmodifiableMap(routers);
    }

    private Router require(Object tenantIdentifier) throws SQLException {
        Router router = routers.get(String.valueOf(tenantIdentifier));
        if (router == null) {
            throw new SQLException("hibernate-rwsplit: unknown tenant '" + tenantIdentifier + "' (configured in '"
                    + TENANTS + "': " + routers.keySet() + ")", "08001");
        }
        return router;
    }

    @Override
    public Connection getAnyConnection() {
        return routers.values().iterator().next().open(false);
    }

    @Override
    public void releaseAnyConnection(Connection connection) throws SQLException {
        connection.close();
    }

    @Override
    public Connection getConnection(Object tenantIdentifier) throws SQLException {
        return require(tenantIdentifier).open(false);
    }

    @Override
    public Connection getReadOnlyConnection(Object tenantIdentifier) throws SQLException {
        return require(tenantIdentifier).open(true);
    }

    @Override
    public void releaseConnection(Object tenantIdentifier, Connection connection) throws SQLException {
        connection.close();
    }

    @Override
    public void releaseReadOnlyConnection(Object tenantIdentifier, Connection connection) throws SQLException {
        connection.close();
    }

    @Override
    public boolean supportsAggressiveRelease() {
        return false;
    }

    @Override
    public boolean isUnwrappableAs(Class<?> unwrapType) {
        return unwrapType.isInstance(this);
    }

    @Override
    public <T> T unwrap(Class<T> unwrapType) {
        return unwrapType.cast(this);
    }

    @Override
    public void stop() {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            }
            catch (Exception ignored) {
                // closing pools on shutdown: nothing more to do
            }
        }
    }
}
