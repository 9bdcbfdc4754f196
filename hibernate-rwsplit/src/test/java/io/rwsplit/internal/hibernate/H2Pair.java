package io.rwsplit.internal.hibernate;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;

import io.rwsplit.testing.H2Server;

/**
 * Separate in-memory H2 databases ({@link H2Server}s) with the same schema and different rows, so that every result
 * shows which one answered: person 1 is "primary-alice" on the primary, "replica-alice" on the replica and
 * "replica2-alice" on the second replica; the primary's sequence starts at 1000, the replicas' at 5000 and 9000.
 */
final class H2Pair {

    final String primaryUrl;
    final String replicaUrl;
    final String replica2Url;
    private final List<H2Server> servers;

    H2Pair() {
        try {
            servers = List.of(
                    new H2Server("primary", ";LOCK_TIMEOUT=2000", schema("primary", 1000)),
                    new H2Server("replica", schema("replica", 5000)),
                    new H2Server("replica2", schema("replica2", 9000)));
        }
        catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        primaryUrl = servers.get(0).url;
        replicaUrl = servers.get(1).url;
        replica2Url = servers.get(2).url;
    }

    private static List<String> schema(String who, int sequenceStart) {
        return List.of(
                "create table person (id bigint primary key, name varchar(100))",
                "create sequence person_seq start with " + sequenceStart + " increment by 1",
                "create table item (id bigint auto_increment primary key, label varchar(100))",
                "insert into person (id, name) values (1, '" + who + "-alice')",
                "insert into person (id, name) values (2, '" + who + "-bob')");
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

    /**
     * A unit as the tests of rules by query shape use it: SQL comments written (Hibernate's comment opens each
     * statement), consistency {@code eventual}, and {@code keysAndValues} on top.
     */
    EntityManagerFactory withRules(String... keysAndValues) {
        Map<String, Object> settings = settings();
        settings.put("hibernate.use_sql_comments", "true");
        settings.put("hibernate.rwsplit.consistency", "eventual");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            settings.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return factory(settings);
    }

    EntityManagerFactory factory() {
        return factory(settings());
    }

    /** The first column of the first row {@code sql} returns on the database at {@code url}, one of this pair's. */
    String query(String url, String sql) {
        try {
            return server(url).read(sql);
        }
        catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    long count(String url, String table) {
        return Long.parseLong(query(url, "select count(*) from " + table));
    }

    void close() {
        for (H2Server server : servers) {
            try {
                server.shutdown();
            }
            catch (SQLException ignored) {
                // already gone
            }
        }
    }

    private H2Server server(String url) {
        for (H2Server server : servers) {
            if (server.url.equals(url)) {
                return server;
            }
        }
        throw new IllegalArgumentException("not a database of this pair: " + url);
    }
}
