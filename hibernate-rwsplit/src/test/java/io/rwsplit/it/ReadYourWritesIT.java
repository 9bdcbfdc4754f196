package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.RwSplitSettings;
import io.rwsplit.position.MariaDbGtidPosition;
import io.rwsplit.testing.MariaDbCluster;
import io.rwsplit.testing.MariaDbCluster.JdbcDriver;
import io.rwsplit.testing.ReplicatedCluster;

/** {@link ReadYourWritesContract} on MariaDB (GTID positions), plus mysql-connector-j and the measured lag. */
@ReplicatedCluster
class ReadYourWritesIT extends ReadYourWritesContract {

    private final MariaDbCluster mariadb;

    ReadYourWritesIT(MariaDbCluster cluster) {
        super(cluster);
        this.mariadb = cluster;
    }

    @Override
    List<String> schema() {
        return List.of("create table profile (id bigint primary key, bio varchar(100))",
                "create table purchase_order (id bigint auto_increment primary key,"
                        + " customer varchar(100) not null, item varchar(100) not null, index (customer))");
    }

    @Override
    void configure(HibernatePersistenceConfiguration cfg) {
        // the defaults
    }

    @Override
    String positionMode() {
        return "gtid";
    }

    @Override
    Class<?> positionType() {
        return MariaDbGtidPosition.class;
    }

    @Override
    String label() {
        return "consistency-it";
    }

    @Test
    void gtidModeWorksThroughMysqlConnectorJ() throws Exception {
        EntityManagerFactory emf = factory(mariadb.jdbcUrl(MariaDbCluster.PRIMARY, JdbcDriver.MYSQL),
                mariadb.jdbcUrl(MariaDbCluster.replica(1), JdbcDriver.MYSQL) + "\n"
                        + mariadb.jdbcUrl(MariaDbCluster.replica(2), JdbcDriver.MYSQL),
                Map.of(RwSplitSettings.READ_YOUR_WRITES, "gtid",
                        "hibernate.dialect", "org.hibernate.dialect.MariaDBDialect"));
        Outcome o = run(emf, emf, Consistency.readYourWrites(), PROFILE);
        report("profile, no delay, gtid mode, mysql-connector-j", o);
        assertEquals(0, o.stale(), o.toString());
        assertTrue(o.replicaShare() > 0.5, o.toString());
    }

    /** The lag the defaults are chosen against: commit on the primary until a replica applied it. */
    @Test
    void measuresReplicationLag() throws Exception {
        long[] micros = new long[200];
        try (Connection primary = cluster.connect(MariaDbCluster.PRIMARY);
             Connection replica = cluster.connect(MariaDbCluster.replica(1));
             Statement p = primary.createStatement();
             PreparedStatement wait = replica.prepareStatement("select master_gtid_wait(?, 5)")) {
            for (int i = 0; i < micros.length; i++) {
                p.executeUpdate("update profile set bio = 'lag" + i + "' where id = 1");
                long committed = System.nanoTime();
                String gtid;
                try (ResultSet rs = p.executeQuery("select @@last_gtid")) {
                    rs.next();
                    gtid = rs.getString(1);
                }
                wait.setString(1, gtid);
                try (ResultSet rs = wait.executeQuery()) {
                    rs.next();
                    assertEquals(0, rs.getInt(1));
                }
                micros[i] = (System.nanoTime() - committed) / 1_000;
            }
        }
        Arrays.sort(micros);
        System.out.printf("[consistency-it] replication lag, commit to applied on replica1 (incl. 2 round trips),"
                + " 200 commits: p50 %d us, p99 %d us, max %d us%n", micros[100], micros[197], micros[199]);
    }
}
