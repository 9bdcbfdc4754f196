package io.rwsplit.quarkus;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.cache.LocalConnectionCache;
import io.agroal.api.configuration.AgroalConnectionPoolConfiguration;
import io.agroal.api.configuration.AgroalDataSourceConfiguration;
import io.agroal.api.configuration.supplier.AgroalConnectionPoolConfigurationSupplier;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.transaction.TransactionIntegration;

/**
 * The Agroal pools of the replicas given as URLs ({@code quarkus.rwsplit.replicas}): each a copy of the unit
 * datasource's pool configuration (driver, credentials, JDBC properties, pool sizes, timeouts, validation, exception
 * sorter, new-connection SQL) with the replica's URL, in autocommit, and outside JTA transactions (a replica read is
 * never enlisted, as the primary's connections are). Not read-only in Agroal's sense: the core sets every connection
 * of a DataSource it is given read-only and back, which a read-only Agroal pool refuses (the connection would be
 * discarded at each return). This extension owns the pools and closes them when the application stops; the core
 * creates no pool for a replica given as a DataSource.
 */
final class ReplicaPools implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicaPools.class);

    /** A replica pool's: none, its connections are never enlisted in a JTA transaction. */
    static final TransactionIntegration NO_TRANSACTIONS = TransactionIntegration.none();

    private final List<AgroalDataSource> owned = new ArrayList<>();

    /**
     * A new pool for {@code url}, configured like {@code primary}.
     *
     * @param name the replica's name, in the log
     */
    AgroalDataSource create(AgroalDataSource primary, String url, String unit, String name) {
        AgroalDataSource pool = new io.agroal.pool.DataSource(configuration(primary.getConfiguration(), url));
        synchronized (owned) {
            owned.add(pool);
        }
        log.debug("hibernate-rwsplit [{}]: replica '{}' gets an Agroal pool configured like the unit's datasource", unit, name);
        return pool;
    }

    /** The configuration of a replica pool for {@code url}: {@code primary}'s, in autocommit, outside JTA. */
    static AgroalDataSourceConfiguration configuration(AgroalDataSourceConfiguration primary, String url) {
        AgroalConnectionPoolConfiguration pool = primary.connectionPoolConfiguration();
        AgroalConnectionPoolConfigurationSupplier replica = new AgroalConnectionPoolConfigurationSupplier(pool)
                .connectionFactoryConfiguration(factory -> factory.jdbcUrl(url).readOnly(false).autoCommit(true)
                        .poolRecovery(false))
                .transactionIntegration(NO_TRANSACTIONS)
                .transactionRequirement(AgroalConnectionPoolConfiguration.TransactionRequirement.OFF)
                .recoveryEnable(false)
                // the cache holds the thread's last connection: never the primary pool's
                .connectionCache(LocalConnectionCache.single());
        return new AgroalDataSourceConfigurationSupplier()
                .dataSourceImplementation(primary.dataSourceImplementation())
                .metricsEnabled(primary.metricsEnabled())
                .connectionPoolConfiguration(replica.get())
                .get();
    }

    /** Closes every pool created here. */
    @Override
    public void close() {
        List<AgroalDataSource> pools;
        synchronized (owned) {
            pools = List.copyOf(owned);
            owned.clear();
        }
        for (AgroalDataSource pool : pools) {
            try {
                pool.close();
            }
            catch (RuntimeException e) {
                log.warn("hibernate-rwsplit: closing a replica pool failed: {}", e.toString());
            }
        }
    }
}
