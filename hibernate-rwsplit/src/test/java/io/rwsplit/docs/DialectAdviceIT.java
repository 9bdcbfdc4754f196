package io.rwsplit.docs;

import static io.rwsplit.testing.MariaDbCluster.PRIMARY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.rwsplit.internal.hibernate.Person;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.MariaDbCluster.JdbcDriver;
import io.rwsplit.testing.ReplicatedCluster;
import jakarta.persistence.EntityManagerFactory;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.MariaDBDialect;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The dialect advice of the README and docs/routing.md, checked against the real MariaDB cluster: the
 * settings it recommends give MariaDB's dialect at the server's version with no warning from Hibernate,
 * and the advice it replaces does not.
 */
@ReplicatedCluster
class DialectAdviceIT {

    private final MariaDbCluster cluster;

    DialectAdviceIT(MariaDbCluster cluster) {
        this.cluster = cluster;
    }

    @Test
    void mariadbDriverNeedsNoDialectSetting() {
        Startup startup = start(JdbcDriver.MARIADB, Map.of());

        assertTrue(startup.dialect instanceof MariaDBDialect, startup.dialect.toString());
        assertTrue(startup.dialect.getVersion().isSameOrAfter(10, 6), startup.dialect.toString());
        assertEquals(List.of(), startup.warnings);
    }

    @Test
    void mysqlConnectorOnMariaDbStartsCleanWithProductNameAndVersion() throws SQLException {
        String version = serverMajorMinor();

        Startup startup = start(JdbcDriver.MYSQL, Map.of(
                "jakarta.persistence.database-product-name", "MariaDB",
                "jakarta.persistence.database-product-version", version));

        assertTrue(startup.dialect instanceof MariaDBDialect, startup.dialect.toString());
        assertTrue(startup.dialect.getVersion().isSameOrAfter(10, 6), startup.dialect.toString());
        assertEquals(List.of(), startup.warnings);
    }

    @Test
    void mysqlConnectorOnMariaDbWithoutThemGetsAnOldMySqlDialect() {
        Startup startup = start(JdbcDriver.MYSQL, Map.of());

        assertTrue(!(startup.dialect instanceof MariaDBDialect), startup.dialect.toString());
        assertTrue(startup.warnings.stream().anyMatch(w -> w.contains("HHH000511")), startup.warnings.toString());
    }

    @Test
    void namingTheDialectAloneWarnsTwice() {
        Startup startup = start(JdbcDriver.MYSQL, Map.of("hibernate.dialect", MariaDBDialect.class.getName()));

        assertTrue(startup.warnings.stream().anyMatch(w -> w.contains("HHH000511")), startup.warnings.toString());
        assertTrue(startup.warnings.stream().anyMatch(w -> w.contains("HHH90000025")), startup.warnings.toString());
    }

    private String serverMajorMinor() throws SQLException {
        String full = cluster.queryString(PRIMARY, "SELECT VERSION()");
        String[] parts = full.split("[.-]");
        return parts[0] + "." + parts[1];
    }

    private Startup start(JdbcDriver driver, Map<String, String> extra) {
        HibernatePersistenceConfiguration unit = new HibernatePersistenceConfiguration("dialect-advice")
                .managedClass(Person.class)
                .jdbcUrl(cluster.jdbcUrl(PRIMARY, driver))
                .jdbcCredentials(cluster.user(), cluster.password())
                .property("hibernate.rwsplit.replicas", cluster.jdbcUrl(MariaDbCluster.replica(1), driver) + " "
                        + cluster.jdbcUrl(MariaDbCluster.replica(2), driver));
        extra.forEach(unit::property);
        List<String> warnings = new java.util.ArrayList<>();
        Dialect dialect = withHibernateWarnings(warnings::add, () -> {
            try (EntityManagerFactory emf = unit.createEntityManagerFactory()) {
                return emf.unwrap(SessionFactoryImplementor.class).getJdbcServices().getDialect();
            }
        });
        return new Startup(dialect, warnings);
    }

    private static Dialect withHibernateWarnings(Consumer<String> sink, java.util.function.Supplier<Dialect> body) {
        Logger hibernate = (Logger) LoggerFactory.getLogger("org.hibernate");
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        hibernate.addAppender(appender);
        try {
            return body.get();
        }
        finally {
            hibernate.detachAppender(appender);
            for (ILoggingEvent event : appender.list) {
                if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
                    sink.accept(event.getFormattedMessage());
                }
            }
        }
    }

    private record Startup(Dialect dialect, List<String> warnings) {
    }
}
