package io.rwsplit.quarkus.it;

import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Two persistence units, each on its own H2 primary and routed to its own replicas: the default unit as in
 * application.properties (its replica {@code replica1} by URL) plus the datasource {@code replica-b} on the same
 * replica database, the two taken in turn ({@code round_robin}); the unit {@code orders} on the datasource
 * {@code orders}, its replica the datasource {@code orders-replica}. The unit {@code orders} maps
 * {@link io.rwsplit.orders.Customer}, whose customer 1 is "orders-primary-alice" / "orders-replica-alice" in the
 * orders databases, so each answer tells which unit and which server gave it.
 */
public class SeveralUnitsProfile implements QuarkusTestProfile {

    static final String ORDERS = "orders";
    static final String ORDERS_PRIMARY_URL = "jdbc:h2:mem:quarkus_orders_primary";
    static final String ORDERS_REPLICA_URL = "jdbc:h2:mem:quarkus_orders_replica";

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> c = new HashMap<>();
        c.put("quarkus.hibernate-orm.packages", "io.rwsplit.quarkus.it");
        c.put("quarkus.datasource.\"orders\".db-kind", "h2");
        c.put("quarkus.datasource.\"orders\".username", "sa");
        c.put("quarkus.datasource.\"orders\".password", "");
        c.put("quarkus.datasource.\"orders\".jdbc.url", ORDERS_PRIMARY_URL + ";DB_CLOSE_DELAY=-1");
        c.put("quarkus.hibernate-orm.\"orders\".datasource", "orders");
        c.put("quarkus.hibernate-orm.\"orders\".packages", "io.rwsplit.orders");
        c.put("quarkus.hibernate-orm.\"orders\".schema-management.strategy", "drop-and-create");
        c.put("quarkus.hibernate-orm.\"orders\".sql-load-script", "orders-import.sql");
        replica(c, "orders-replica", ORDERS_REPLICA_URL + ";DB_CLOSE_DELAY=-1;INIT=RUNSCRIPT FROM 'classpath:orders-replica.sql'");
        replica(c, "replica-b", "jdbc:h2:mem:quarkus_replica;DB_CLOSE_DELAY=-1;INIT=RUNSCRIPT FROM 'classpath:replica.sql'");
        c.put("quarkus.rwsplit.replica-datasources", "replica-b");
        c.put("quarkus.rwsplit.load-balancer", "round_robin");
        c.put("quarkus.rwsplit.\"orders\".replica-datasources", "orders-replica");
        c.put("quarkus.rwsplit.\"orders\".consistency", "eventual");
        c.put("quarkus.rwsplit.\"orders\".probe-interval", "100ms");
        c.put("quarkus.rwsplit.\"orders\".max-lag", "5s");
        return c;
    }

    /** A replica as a named datasource, outside JTA transactions. */
    private static void replica(Map<String, String> c, String name, String url) {
        c.put("quarkus.datasource.\"" + name + "\".db-kind", "h2");
        c.put("quarkus.datasource.\"" + name + "\".username", "sa");
        c.put("quarkus.datasource.\"" + name + "\".password", "");
        c.put("quarkus.datasource.\"" + name + "\".jdbc.url", url);
        c.put("quarkus.datasource.\"" + name + "\".jdbc.transactions", "disabled");
    }
}
