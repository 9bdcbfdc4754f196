package io.rwsplit.internal.hibernate;

import java.sql.SQLException;
import java.util.Map;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.zaxxer.hikari.HikariDataSource;

import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.route.SqlClassifier;
import io.rwsplit.internal.route.SqlKind;

/**
 * The SQL the primary's pool runs on each new connection ({@code connectionInitSql}), which replica pools
 * inherit so that replica sessions start like the primary's: from {@code hibernate.hikari.connectionInitSql}
 * (Hibernate's HikariCP provider), or from a HikariCP {@code DataSource} handed to the unit (Spring Boot's
 * {@code spring.datasource.hikari.connection-init-sql}). SQL that may write is not inherited: replicas refuse
 * writes.
 */
final class PrimaryInitSql {

    private static final Logger log = LoggerFactory.getLogger(PrimaryInitSql.class);

    /** Where a unit's settings may hold the primary's {@code DataSource}. */
    private static final String[] DATA_SOURCE_KEYS = {"hibernate.connection.datasource", "jakarta.persistence.nonJtaDataSource",
            "javax.persistence.nonJtaDataSource"};

    private PrimaryInitSql() {
    }

    /** The init SQL replica pools inherit from the primary's pool, or {@code null}. */
    static String of(Map<String, Object> settings) {
        String sql = find(settings);
        if (sql == null || sql.isBlank()) {
            return null;
        }
        SqlKind kind = SqlClassifier.classify(sql);
        if (kind != SqlKind.SESSION && kind != SqlKind.READ && kind != SqlKind.PRIMARY_FUNCTION) {
            log.info("hibernate-rwsplit: the primary pool's init SQL is not run on replicas: it may write ({}); set '{}'"
                    + " for the replica pools if they need one", sql, RwSplitSettings.POOL_PREFIX + "connectionInitSql");
            return null;
        }
        return sql;
    }

    /** The JDBC URL of the HikariCP {@code DataSource} handed to the unit as its primary, or {@code null}. */
    static String dataSourceUrl(Map<String, Object> settings) {
        HikariDataSource pool = dataSourcePool(settings);
        return pool == null ? null : pool.getJdbcUrl();
    }

    private static String find(Map<String, Object> settings) {
        Object hikari = settings.get("hibernate.hikari.connectionInitSql");
        if (hikari instanceof String s) {
            return s;
        }
        HikariDataSource pool = dataSourcePool(settings);
        return pool == null ? null : pool.getConnectionInitSql();
    }

    private static HikariDataSource dataSourcePool(Map<String, Object> settings) {
        for (String key : DATA_SOURCE_KEYS) {
            if (settings.get(key) instanceof DataSource ds) {
                HikariDataSource pool = hikari(ds);
                if (pool != null) {
                    return pool;
                }
            }
        }
        return null;
    }

    /** The HikariCP pool behind a primary's connection provider (Hibernate's, or a {@code DataSource}'s), or null. */
    static HikariDataSource pool(ConnectionProvider provider) {
        try {
            if (provider.isUnwrappableAs(DataSource.class)) {
                return hikari(provider.unwrap(DataSource.class));
            }
        }
        catch (RuntimeException e) {
            // a provider that says it unwraps and then does not: no pool to ask
        }
        return null;
    }

    static HikariDataSource hikari(DataSource ds) {
        if (ds instanceof HikariDataSource pool) {
            return pool;
        }
        try {
            return ds.isWrapperFor(HikariDataSource.class) ? ds.unwrap(HikariDataSource.class) : null;
        }
        catch (SQLException | RuntimeException e) {
            return null;
        }
    }
}
