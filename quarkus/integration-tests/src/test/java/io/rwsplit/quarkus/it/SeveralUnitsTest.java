package io.rwsplit.quarkus.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.agroal.runtime.AgroalDataSourceUtil;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ClientProxy;
import io.quarkus.hibernate.orm.PersistenceUnit;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.rwsplit.RouteReason;
import io.rwsplit.RwSplit;

/**
 * Two persistence units routed apart ({@link SeveralUnitsProfile}): each reads from its own replica, writes to its
 * own primary, and has its own statistics, readiness details and meters; replicas given as named datasources are
 * served by those datasources' pools; a unit's load balancer is the one its key names.
 */
@QuarkusTest
@TestProfile(SeveralUnitsProfile.class)
class SeveralUnitsTest {

    private static final String CHECK = "checks.find { it.name == 'hibernate-rwsplit' }.";

    @Inject
    People people;

    @Inject
    Orders orders;

    @Inject
    Catalog catalog;

    @Inject
    EntityManagerFactory defaultUnit;

    @Inject
    MeterRegistry registry;

    @Test
    void eachUnitReadsFromItsOwnReplica() {
        assertEquals("replica-alice", people.nameOf(1L));
        assertEquals("orders-replica-alice", orders.nameOf(1L));
    }

    @Test
    void theLoadBalancerOfTheKeyTakesTheReplicasInTurnForOneThread() {
        Map<String, Long> before = RwSplit.statistics(defaultUnit).byReplica();

        for (int i = 0; i < 4; i++) {
            assertEquals("replica-alice", catalog.nameOf(1L)); // a query: a statement each time
        }

        // thread_affinity, the core's default, would keep this thread's four reads on one replica
        Map<String, Long> after = RwSplit.statistics(defaultUnit).byReplica();
        assertEquals(2L, after.getOrDefault("replica1", 0L) - before.getOrDefault("replica1", 0L), after.toString());
        assertEquals(2L, after.getOrDefault("replica-b", 0L) - before.getOrDefault("replica-b", 0L), after.toString());
    }

    @Test
    void aWriteOfTheSecondUnitGoesToItsOwnPrimaryOnly() throws SQLException {
        orders.add(30L, "olga");
        assertEquals("olga", name(SeveralUnitsProfile.ORDERS_PRIMARY_URL, "customer", 30L));
        assertNull(name(SeveralUnitsProfile.ORDERS_REPLICA_URL, "customer", 30L));
        assertNull(name("jdbc:h2:mem:quarkus_primary", "person", 30L));
    }

    @Test
    void statisticsOfTwoUnitsAreApart() {
        long defaultBefore = replicaReads(defaultUnit);
        long ordersBefore = replicaReads(ordersUnit());

        assertEquals("orders-replica-alice", orders.nameOf(1L));

        assertEquals(ordersBefore + 1, replicaReads(ordersUnit()));
        assertEquals(defaultBefore, replicaReads(defaultUnit));
    }

    @Test
    void aNamedDatasourceServesItsReplicaWithItsOwnPool() {
        assertSame(ClientProxy.unwrap(AgroalDataSourceUtil.dataSourceInstance("orders-replica").get()),
                CorePools.replicaPool(ordersUnit(), "orders-replica"));
        assertSame(ClientProxy.unwrap(AgroalDataSourceUtil.dataSourceInstance("replica-b").get()),
                CorePools.replicaPool(defaultUnit, "replica-b"));
    }

    @Test
    void urlAndNamedDatasourceReplicasOfOneUnitAreBothAgroalPools() {
        assertEquals(AgroalDataSource.class, agroal(CorePools.replicaPool(defaultUnit, "replica1")));
        assertEquals(AgroalDataSource.class, agroal(CorePools.replicaPool(defaultUnit, "replica-b")));
    }

    @Test
    void readinessReportsEveryUnitUnderItsName() {
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body(CHECK + "status", is("UP"))
                .body(CHECK + "data.primary", is("UP"))
                .body(CHECK + "data.replica1", startsWith("UP, lag "))
                .body(CHECK + "data.replica-b", startsWith("UP, lag "))
                .body(CHECK + "data.'orders.primary'", is("UP"))
                .body(CHECK + "data.'orders.orders-replica'", startsWith("UP, lag "))
                .body(CHECK + "data.'orders.lostWriteFailovers'", is(0));
    }

    @Test
    void metersOfEachUnitCarryTheUnitsName() {
        double before = replicaReadMeter("orders").count();
        assertEquals("orders-replica-alice", orders.nameOf(1L));
        assertEquals(before + 1, replicaReadMeter("orders").count());
        assertNotNull(replicaReadMeter("<default>"));
    }

    private static Class<?> agroal(Object pool) {
        return pool instanceof AgroalDataSource ? AgroalDataSource.class : pool.getClass();
    }

    private FunctionCounter replicaReadMeter(String unit) {
        FunctionCounter counter = registry.find("rwsplit.statements").tags("entityManagerFactory", unit,
                "target", "replica", "reason", "REPLICA_READ").functionCounter();
        assertNotNull(counter, "rwsplit.statements{reason=REPLICA_READ} of " + unit);
        return counter;
    }

    private static EntityManagerFactory ordersUnit() {
        return Arc.container().instance(EntityManagerFactory.class,
                new PersistenceUnit.PersistenceUnitLiteral(SeveralUnitsProfile.ORDERS)).get();
    }

    private static long replicaReads(EntityManagerFactory factory) {
        return RwSplit.statistics(factory).byReason().getOrDefault(RouteReason.REPLICA_READ.name(), 0L);
    }

    private static String name(String url, String table, long id) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             PreparedStatement s = c.prepareStatement("select name from " + table + " where id = ?")) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
