package io.rwsplit.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.orm.jpa.vendor.HibernateJpaDialect;
import org.springframework.transaction.support.TransactionTemplate;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * One variant's persistence stack: an {@code EntityManagerFactory}, whatever pools the variant created
 * outside Hibernate, and the way the application runs its reads and writes ({@link #read}, {@link #write}).
 * Every variant gets the same entity and pool size.
 */
public final class Stack implements AutoCloseable {

    /** Pool size of every pool of every variant. */
    public static final int POOL_SIZE = 8;

    private final Variant variant;
    private final EntityManagerFactory factory;
    private final List<AutoCloseable> resources;
    /** Spring transactions (null unless the variant reads in read-only transactions). */
    private final TransactionTemplate readOnly;
    private final TransactionTemplate readWrite;
    private final EntityManager shared;

    private Stack(Variant variant, EntityManagerFactory factory, List<AutoCloseable> resources) {
        this.variant = variant;
        this.factory = factory;
        this.resources = resources;
        if (variant.readOnlyTransactions()) {
            // what a Spring Boot application gets: JpaTransactionManager with HibernateJpaDialect (which calls
            // Connection#setReadOnly(true) for a read-only transaction), and the shared EntityManager proxy that
            // @PersistenceContext and Spring Data repositories use
            JpaTransactionManager manager = new JpaTransactionManager(factory);
            manager.setJpaDialect(new HibernateJpaDialect());
            manager.afterPropertiesSet();
            this.readOnly = new TransactionTemplate(manager);
            this.readOnly.setReadOnly(true);
            this.readWrite = new TransactionTemplate(manager);
            this.shared = SharedEntityManagerCreator.createSharedEntityManager(factory);
        }
        else {
            this.readOnly = null;
            this.readWrite = null;
            this.shared = null;
        }
    }

    public Variant variant() {
        return variant;
    }

    public EntityManagerFactory factory() {
        return factory;
    }

    /**
     * Runs a read as the variant's application would: in a Spring read-only transaction, or in a new
     * {@code EntityManager} outside a transaction.
     */
    public <T> T read(Function<EntityManager, T> work) {
        if (readOnly != null) {
            return readOnly.execute(status -> work.apply(shared));
        }
        EntityManager em = factory.createEntityManager();
        try {
            return work.apply(em);
        }
        finally {
            em.close();
        }
    }

    /**
     * Runs a write as the variant's application would: in a Spring read-write transaction, or in a new
     * {@code EntityManager} and a resource-local transaction.
     */
    public <T> T write(Function<EntityManager, T> work) {
        if (readWrite != null) {
            return readWrite.execute(status -> work.apply(shared));
        }
        EntityManager em = factory.createEntityManager();
        try {
            em.getTransaction().begin();
            T result = work.apply(em);
            em.getTransaction().commit();
            return result;
        }
        finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    /** Opens {@code variant} on {@code db}; {@code extra} settings (e.g. consistency) are added to the unit. */
    public static Stack open(Variant variant, Database db, Map<String, String> extra) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("hibernate.hbm2ddl.auto", "none");
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            switch (variant) {
                case PLAIN, PLAIN_TX -> hikariProvider(settings, db.primaryUrl(), db);
                case RWSPLIT, RWSPLIT_TX -> {
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
                    // through the MySQL protocol MariaDB reports version 5.5.5, which Hibernate would take for an
                    // unsupported MySQL: the same dialect as the other variants
                    settings.put("hibernate.dialect", "org.hibernate.dialect.MariaDBDialect");
                }
                case AWS_SRW -> {
                    if (!db.mariadb()) {
                        throw new IllegalArgumentException("AWS_SRW needs the MariaDB cluster");
                    }
                    // the wrapper over MariaDB Connector/J; srw switches between the two endpoints on
                    // Connection#setReadOnly and has no topology; it can verify roles only on RDS/Aurora
                    hikariProvider(settings, "jdbc:aws-wrapper:mariadb://" + Database.hostPort(db.primaryUrl()) + "/rwsplit", db);
                    settings.put("hibernate.hikari.dataSource.wrapperPlugins", "srw");
                    settings.put("hibernate.hikari.dataSource.srwWriteEndpoint", Database.hostPort(db.primaryUrl()));
                    settings.put("hibernate.hikari.dataSource.srwReadEndpoint", Database.hostPort(db.replicaUrls().get(0)));
                    settings.put("hibernate.hikari.dataSource.verifyNewSrwConnections", "false");
                }
            }
            if (variant.readOnlyTransactions()) {
                // as Spring's HibernateJpaVendorAdapter sets it; HibernateJpaDialect prepares the connection of a
                // read-only transaction (setReadOnly) only with this release mode
                settings.put("hibernate.connection.handling_mode", "DELAYED_ACQUISITION_AND_HOLD");
            }
            settings.putAll(extra);
            HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("bench-" + variant)
                    .managedClass(BenchItem.class);
            settings.forEach(cfg::property);
            return new Stack(variant, cfg.createEntityManagerFactory(), resources);
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
