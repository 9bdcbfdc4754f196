package io.rwsplit.internal.hibernate;

import java.util.Map;

import org.hibernate.boot.registry.StandardServiceInitiator;
import org.hibernate.engine.jdbc.connections.internal.ConnectionProviderInitiator;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProviderConfigurationException;
import org.hibernate.service.spi.ServiceRegistryImplementor;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.ConfigurationException;
import io.rwsplit.internal.config.RwSplitConfig;
import io.rwsplit.internal.config.Settings;
import io.rwsplit.internal.consistency.ConsistencyRuntime;

/**
 * Builds the connection provider exactly as the host would (Hibernate's own initiator, or the one a host such as
 * Quarkus uses instead), and wraps it when {@code hibernate.rwsplit.replicas} is set. Without that setting it returns
 * the host's own result.
 */
final class RoutingConnectionProviderInitiator implements StandardServiceInitiator<ConnectionProvider> {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RoutingConnectionProviderInitiator.class);

    private final StandardServiceInitiator<ConnectionProvider> primaryInitiator;

    /** Around Hibernate's own connection provider initiator. */
    RoutingConnectionProviderInitiator() {
        this(ConnectionProviderInitiator.INSTANCE);
    }

    /** @param primaryInitiator what builds the primary's provider when routing is off, and the provider it wraps when on */
    RoutingConnectionProviderInitiator(StandardServiceInitiator<ConnectionProvider> primaryInitiator) {
        this.primaryInitiator = primaryInitiator;
    }

    @Override
    public Class<ConnectionProvider> getServiceInitiated() {
        return ConnectionProvider.class;
    }

    @Override
    public ConnectionProvider initiateService(Map<String, Object> settings, ServiceRegistryImplementor registry) {
        try {
            return initiate(settings, registry);
        }
        catch (ConfigurationException e) {
            throw forHibernate(e);
        }
    }

    /**
     * A configuration our settings refuse, as Hibernate expects a connection provider's refusal; the cause keeps our
     * exception (an {@link io.rwsplit.InvalidSettingException} names the key a framework can point at).
     */
    static ConnectionProviderConfigurationException forHibernate(ConfigurationException e) {
        return new ConnectionProviderConfigurationException(e.getMessage(), e);
    }

    private ConnectionProvider initiate(Map<String, Object> settings, ServiceRegistryImplementor registry) {
        if (!RwSplitConfig.isActive(settings)) {
            if (RwSplitConfig.isMultiTenantActive(settings)) {
                Settings.check(settings);
            }
            else {
                warnInactive(settings);
            }
            return primaryInitiator.initiateService(settings, registry);
        }
        if (RwSplitConfig.isMultiTenantActive(settings)) {
            throw new ConnectionProviderConfigurationException("hibernate-rwsplit: set either '" + RwSplitSettings.REPLICAS
                    + "' or '" + RwSplitSettings.TENANTS + "', not both");
        }
        UnitSettings unit = UnitSettings.read(settings);
        RwSplitConfig config = RwSplitConfig.from(settings);
        ConnectionProvider primary = primaryInitiator.initiateService(settings, registry);
        if (primary == null) {
            throw new ConnectionProviderConfigurationException("hibernate-rwsplit: setting '" + RwSplitSettings.REPLICAS
                    + "' is set but the persistence unit uses multi-tenancy: configure tenants with '"
                    + RwSplitSettings.TENANTS + "' instead");
        }
        if (primary instanceof RoutingConnectionProvider) {
            return primary;
        }
        ConsistencyRuntime consistency = ConsistencyRuntime.create(unit.consistency(), unit.clock());
        try {
            return new RoutingConnectionProvider(primary, config, unit, consistency, PrimarySession.of(settings));
        }
        catch (RuntimeException e) {
            consistency.close();
            throw e;
        }
    }

    /** Settings of ours that are present while the module is off are surely a mistake (a typo in the list key?). */
    private static void warnInactive(Map<String, Object> settings) {
        for (Object k : settings.keySet()) {
            if (k instanceof String key && key.startsWith(RwSplitSettings.PREFIX)) {
                log.warn("hibernate-rwsplit: setting '{}' is ignored: the module is not active because neither '{}' nor"
                        + " '{}' is set", key, RwSplitSettings.REPLICAS, RwSplitSettings.TENANTS);
            }
        }
    }
}
