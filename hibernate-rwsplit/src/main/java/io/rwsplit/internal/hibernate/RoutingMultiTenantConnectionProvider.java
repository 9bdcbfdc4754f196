package io.rwsplit.internal.hibernate;

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
import org.hibernate.service.UnknownUnwrapTypeException;
import org.hibernate.service.spi.Startable;
import org.hibernate.service.spi.Stoppable;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.rwsplit.internal.config.RwSplitConfig;
import io.rwsplit.internal.consistency.ConsistencyRuntime;
import io.rwsplit.internal.config.Settings;
import io.rwsplit.internal.config.SettingsTable;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.internal.route.Router;

/**
 * Multi-tenancy with one primary and its own replicas per tenant identifier, all routed by the same
 * code as the single-primary provider. Configured by {@code hibernate.rwsplit.tenants}.
 */
public final class RoutingMultiTenantConnectionProvider implements MultiTenantConnectionProvider<Object>, Startable, Stoppable {

    private final Map<String, Router> routers = new LinkedHashMap<>();
    private final List<RoutingRuntime> runtimes = new ArrayList<>();
    private final List<AutoCloseable> primaries = new ArrayList<>();
    private final ConsistencyRuntime consistency;

    RoutingMultiTenantConnectionProvider(Map<String, Object> settings) {
        UnitSettings unit = UnitSettings.read(settings);
        Settings s = new Settings(settings);
        List<String> tenants = Settings.names(s.string(SettingsTable.TENANTS));
        if (tenants.isEmpty()) {
            throw Settings.invalid(TENANTS, settings.get(TENANTS), "one or more tenant identifiers separated by whitespace");
        }
        checkTenantKeys(s, tenants);
        consistency = ConsistencyRuntime.create(unit.consistency(), unit.clock());
        try {
            for (String tenant : tenants) {
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
                primaries.add(primaryPool);
                RoutingRuntime runtime = RoutingRuntime.build(tenant, new PrimarySource() {
                    @Override
                    public Connection acquire() throws SQLException {
                        return primaryPool.getConnection();
                    }

                    @Override
                    public void release(Connection connection) throws SQLException {
                        connection.close();
                    }

                    @Override
                    public void evict(Connection connection) {
                        primaryPool.evictConnection(connection);
                    }
                }, url, config, unit, consistency, new PrimarySession(null, url));
                runtimes.add(runtime);
                routers.put(tenant, runtime.router());
            }
        }
        catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    /** Every {@code hibernate.rwsplit.tenant.*} key must name a listed tenant (Settings.check refuses an unknown option). */
    private static void checkTenantKeys(Settings s, List<String> tenants) {
        for (String key : s.keysWithPrefix(TENANT_PREFIX)) {
            String rest = key.substring(TENANT_PREFIX.length());
            int dot = rest.indexOf('.');
            String tenant = dot < 0 ? rest : rest.substring(0, dot);
            if (!tenants.contains(tenant)) {
                throw new ConnectionProviderConfigurationException("hibernate-rwsplit: setting '" + key
                        + "' names tenant '" + tenant + "', which is not listed in '" + TENANTS + "' " + tenants);
            }
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
        if (!unwrapType.isInstance(this)) {
            throw new UnknownUnwrapTypeException(unwrapType);
        }
        return unwrapType.cast(this);
    }

    /** Starts probing every tenant's replicas; Hibernate calls it once the service is built. */
    @Override
    public void start() {
        runtimes.forEach(RoutingRuntime::start);
    }

    /** Stops the monitors and replica pools first, while the primaries still work, then the primaries and the store. */
    @Override
    public void stop() {
        List<AutoCloseable> all = new ArrayList<>(runtimes);
        all.addAll(primaries);
        if (consistency != null) {
            all.add(consistency);
        }
        for (AutoCloseable c : all) {
            try {
                c.close();
            }
            catch (Exception ignored) {
                // closing pools on shutdown: nothing more to do
            }
        }
    }
}
