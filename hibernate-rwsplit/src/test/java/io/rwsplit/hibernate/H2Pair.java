package io.rwsplit.hibernate;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;

/**
 * Two separate in-memory H2 databases with the same schema and different rows, so that every result
 * shows which one answered: person 1 is "primary-alice" on the primary and "replica-alice" on the
 * replica; the primary's sequence starts at 1000, the replica's at 5000.
 */
final class H2Pair {

    final String primaryUrl;
    final String replicaUrl;
    final String replica2Url;
    private final Connection keepPrimary;
    private final Connection keepReplica;
    private final Connection keepReplica2;

    H2Pair() {
        String id = UUID.randomUUID().toString().substring(0, 8);
        primaryUrl = "jdbc:h2:mem:primary_" + id + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=2000";
        replicaUrl = "jdbc:h2:mem:replica_" + id + ";DB_CLOSE_DELAY=-1";
        replica2Url = "jdbc:h2:mem:replicb_" + id + ";DB_CLOSE_DELAY=-1";
        try {
            keepPrimary = seed(primaryUrl, "primary", 1000);
            keepReplica = seed(replicaUrl, "replica", 5000);
            keepReplica2 = seed(replica2Url, "replica2", 9000);
        }
        catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Connection seed(String url, String who, int sequenceStart) throws SQLException {
        Connection c = DriverManager.getConnection(url, "sa", "");
        try (Statement s = c.createStatement()) {
            s.execute("create table person (id bigint primary key, name varchar(100))");
            s.execute("create sequence person_seq start with " + sequenceStart + " increment by 1");
            s.execute("create table item (id bigint auto_increment primary key, label varchar(100))");
            s.execute("insert into person (id, name) values (1, '" + who + "-alice')");
            s.execute("insert into person (id, name) values (2, '" + who + "-bob')");
        }
        return c;
    }

    /** Settings of a unit whose primary is given by jakarta.persistence.jdbc.* and whose replica is the second database. */
    Map<String, Object> settings() {
        Map<String, Object> settings = new HashMap<>();
        settings.put("jakarta.persistence.jdbc.url", primaryUrl);
        settings.put("jakarta.persistence.jdbc.user", "sa");
        settings.put("jakarta.persistence.jdbc.password", "");
        settings.put("hibernate.rwsplit.replicas", replicaUrl);
        settings.put("hibernate.rwsplit.pool.maximumPoolSize", "4");
        settings.put("hibernate.hikari.maximumPoolSize", "4");
        return settings;
    }

    EntityManagerFactory factory(Map<String, Object> settings) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("rwsplit-test")
                .managedClass(Person.class)
                .managedClass(Item.class);
        settings.forEach(cfg::property);
        return cfg.createEntityManagerFactory();
    }

    EntityManagerFactory factory() {
        return factory(settings());
    }

    String query(String url, String sql) {
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
        catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    long count(String url, String table) {
        return Long.parseLong(query(url, "select count(*) from " + table));
    }

    void close() {
        for (Connection c : new Connection[] {keepPrimary, keepReplica, keepReplica2}) {
            try (Statement s = c.createStatement()) {
                s.execute("shutdown");
            }
            catch (SQLException ignored) {
                // already gone
            }
        }
    }
}
