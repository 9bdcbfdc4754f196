package io.rwsplit.demo.spring;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

import io.rwsplit.demo.embedded.ReplicationSimulator;

/**
 * The embedded default: the schema on the H2 primary and both H2 replicas, kept in step by the JPA demo's
 * {@link ReplicationSimulator} (DEMO ONLY: H2 has no replication), the replicas {@code demo.replication-delay}
 * behind the primary.
 */
@Configuration(proxyBeanMethods = false)
@Profile("!cluster")
class EmbeddedReplication {

    static final List<String> URLS = List.of("jdbc:h2:mem:spring_primary;DB_CLOSE_DELAY=-1",
            "jdbc:h2:mem:spring_replica1;DB_CLOSE_DELAY=-1", "jdbc:h2:mem:spring_replica2;DB_CLOSE_DELAY=-1");

    private static final String[] SCHEMA = {
            "create table if not exists app_user (id bigint auto_increment primary key, name varchar(100) not null,"
                    + " display_name varchar(100) not null, revision int not null)",
            "create table if not exists purchase_order (id bigint auto_increment primary key, user_id bigint not null,"
                    + " item varchar(100) not null)"};

    @Bean(destroyMethod = "close")
    ReplicationSimulator replicationSimulator(@Value("${demo.replication-delay:500ms}") Duration delay) throws SQLException {
        for (String url : URLS) {
            try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
                for (String ddl : SCHEMA) {
                    s.execute(ddl);
                }
            }
        }
        return new ReplicationSimulator(connector(URLS.get(0)), List.of(connector(URLS.get(1)), connector(URLS.get(2))),
                List.of("app_user", "purchase_order"), delay).start();
    }

    private static Supplier<Connection> connector(String url) {
        return () -> {
            try {
                return DriverManager.getConnection(url, "sa", "");
            }
            catch (SQLException e) {
                throw new IllegalStateException(url + ": " + e.getMessage(), e);
            }
        };
    }
}
