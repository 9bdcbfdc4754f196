package io.rwsplit.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import jakarta.persistence.EntityManagerFactory;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * One variant's persistence stack: an {@code EntityManagerFactory} and whatever pools the variant created
 * outside Hibernate. Every variant gets the same entity and pool size; only the connection path
 * differs.
 */
public final class Stack implements AutoCloseable {

    /** Pool size of every pool of every variant. */
    public static final int POOL_SIZE = 8;

    private final EntityManagerFactory factory;
    private final List<AutoCloseable> resources;

    private Stack(EntityManagerFactory factory, List<AutoCloseable> resources) {
        this.factory = factory;
        this.resources = resources;
    }

    public EntityManagerFactory factory() {
        return factory;
    }

    /** Opens {@code variant} on {@code db}; {@code extra} settings (e.g. consistency) are added to the unit. */
    public static Stack open(Variant variant, Database db, Map<String, String> extra) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("hibernate.hbm2ddl.auto", "none");
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            switch (variant) {
                case PLAIN -> hikariProvider(settings, db.primaryUrl(), db);
                case RWSPLIT -> {
                    hikariProvider(settings, db.primaryUrl(), db);
                    settings.put("hibernate.rwsplit.replicas", String.join(" ", db.replicaUrls()));
                    settings.put("hibernate.rwsplit.pool.maximumPoolSize", String.valueOf(POOL_SIZE));
                }
                case SPRING_LAZY -> {
                    HikariDataSource primary = pool(db.primaryUrl(), db, false);
                    HikariDataSource replica = pool(db.replicaUrls().get(0), db, true);
                    resources.add(primary);
                    resources.add(replica);
                    LazyConnectionDataSourceProxy lazy = new LazyConnectionDataSourceProxy(primary);
                    lazy.setReadOnlyDataSource(replica);
                    settings.put("jakarta.persistence.nonJtaDataSource", lazy);
                }
                case SHARDINGSPHERE -> {
                    DataSource sharding = YamlShardingSphereDataSourceFactory.createDataSource(
                            shardingYaml(db).getBytes(StandardCharsets.UTF_8));
                    resources.add((AutoCloseable) sharding);
                    settings.put("jakarta.persistence.nonJtaDataSource", sharding);
                }
                case MYSQL_REPLICATION -> {
                    if (!db.mariadb()) {
                        throw new IllegalArgumentException("MYSQL_REPLICATION needs the MariaDB cluster");
                    }
                    StringBuilder hosts = new StringBuilder(Database.hostPort(db.primaryUrl()));
                    for (String replica : db.replicaUrls()) {
                        hosts.append(',').append(Database.hostPort(replica));
                    }
                    String url = "jdbc:mysql:replication://" + hosts + "/rwsplit"
                            + "?allowPublicKeyRetrieval=true&sslMode=DISABLED";
                    hikariProvider(settings, url, db);
                }
            }
            settings.putAll(extra);
            HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("bench-" + variant)
                    .managedClass(BenchItem.class);
            settings.forEach(cfg::property);
            return new Stack(cfg.createEntityManagerFactory(), resources);
        }
        catch (Exception e) {
            closeAll(resources);
            throw new IllegalStateException("cannot open " + variant + " on " + db.primaryUrl() + ": " + e.getMessage(), e);
        }
    }

    private static void hikariProvider(Map<String, Object> settings, String url, Database db) {
        settings.put("hibernate.connection.provider_class", "org.hibernate.hikaricp.internal.HikariCPConnectionProvider");
        settings.put("jakarta.persistence.jdbc.url", url);
        settings.put("jakarta.persistence.jdbc.user", db.user());
        settings.put("jakarta.persistence.jdbc.password", db.password());
        settings.put("hibernate.hikari.maximumPoolSize", String.valueOf(POOL_SIZE));
    }

    private static HikariDataSource pool(String url, Database db, boolean readOnly) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(POOL_SIZE);
        config.setReadOnly(readOnly);
        return new HikariDataSource(config);
    }

    private static String shardingYaml(Database db) {
        return """
                databaseName: bench
                dataSources:
                  write_ds:
                %s
                  read_ds:
                %s
                rules:
                - !SINGLE
                  tables:
                    - "*.*"
                - !READWRITE_SPLITTING
                  dataSourceGroups:
                    readwrite_ds:
                      writeDataSourceName: write_ds
                      readDataSourceNames:
                        - read_ds
                      transactionalReadQueryStrategy: PRIMARY
                      loadBalancerName: round_robin
                  loadBalancers:
                    round_robin:
                      type: ROUND_ROBIN
                props:
                  sql-show: false
                """.formatted(yamlDataSource(db.primaryUrl(), db), yamlDataSource(db.replicaUrls().get(0), db));
    }

    private static String yamlDataSource(String url, Database db) {
        return "    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n"
                + "    jdbcUrl: '" + url + "'\n"
                + "    username: '" + db.user() + "'\n"
                + "    password: '" + db.password() + "'\n"
                + "    maximumPoolSize: " + POOL_SIZE;
    }

    @Override
    public void close() {
        try {
            factory.close();
        }
        finally {
            closeAll(resources);
        }
    }

    private static void closeAll(List<AutoCloseable> resources) {
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            }
            catch (Exception ignored) {
                // shutting down: nothing useful to do
            }
        }
    }
}
