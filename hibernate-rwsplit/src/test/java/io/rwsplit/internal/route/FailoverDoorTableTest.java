package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.rwsplit.RouteReason;
import io.rwsplit.testing.H2Server;

/**
 * A read ends alike whichever door it came in: for every statement door ({@code createStatement},
 * {@code prepareStatement}, {@code prepareCall}), every failure (a replica's connection breaks, the replicas refuse the
 * read as a write, the primary's connection breaks) and every mode (autocommit, a transaction, a read-only
 * transaction), the caller sees the outcome {@link #expected} gives for the failure and the mode alone: who answered
 * (or the error), the failover counted, whether r1 is still in rotation, how many executions the failure answered.
 * In every case the statement leads back to the routing connection, and no replica is left counted in flight.
 */
class FailoverDoorTableTest {

    private static final String SQL = "select name from who where id = ?";
    private static final String LITERAL_SQL = "select name from who where id = 1";
    /** What the failover counts when it moves a read; every other reason is the first routing's. */
    private static final List<RouteReason> FAILOVER_REASONS =
            List.of(RouteReason.RETRY_REPLICA, RouteReason.RETRY_PRIMARY, RouteReason.REPLICA_REFUSED_WRITE);
    private static final boolean R1_UP = true;
    private static final boolean R1_OUT = false;
    /** The harness's connection error ({@link H2Server#executionFails}, {@link H2Server#failNextExecutions}). */
    private static final String CONNECTION_ERROR = "08S01";
    /** A read-only server's refusal ({@link H2Server#refusesWrites}). */
    private static final String REFUSED_AS_WRITE = "25006";

    /** How the read reaches the routing connection. */
    enum Door {
        CREATE_STATEMENT("createStatement") {
            @Override
            Statement open(Connection c) throws SQLException {
                return c.createStatement();
            }

            @Override
            ResultSet read(Statement s) throws SQLException {
                return s.executeQuery(LITERAL_SQL);
            }
        },
        PREPARE_STATEMENT("prepareStatement") {
            @Override
            Statement open(Connection c) throws SQLException {
                PreparedStatement ps = c.prepareStatement(SQL);
                ps.setInt(1, 1);
                return ps;
            }

            @Override
            ResultSet read(Statement s) throws SQLException {
                return ((PreparedStatement) s).executeQuery();
            }
        },
        /** H2 takes plain SQL in {@code prepareCall}, so the same read comes through this door too. */
        PREPARE_CALL("prepareCall") {
            @Override
            Statement open(Connection c) throws SQLException {
                CallableStatement call = c.prepareCall(SQL);
                call.setInt(1, 1);
                return call;
            }

            @Override
            ResultSet read(Statement s) throws SQLException {
                return ((CallableStatement) s).executeQuery();
            }
        };

        private final String label;

        Door(String label) {
            this.label = label;
        }

        /** The statement, its parameter set (a prepared one is routed here). */
        abstract Statement open(Connection c) throws SQLException;

        /** The read of {@code who}'s one row. */
        abstract ResultSet read(Statement s) throws SQLException;

        @Override
        public String toString() {
            return label;
        }
    }

    /** What goes wrong under the read. */
    enum Failure {
        /** r1 (round robin's first) breaks the connection of every execution; r2 is fine. */
        REPLICA_CONNECTION_ERROR("replica connection error") {
            @Override
            void inject(Servers servers) {
                servers.replicas.get(0).executionFails = true;
            }

            @Override
            int answered(Servers servers) {
                return servers.replicas.get(0).failedExecutions.get() + servers.replicas.get(1).failedExecutions.get();
            }
        },
        /** Both replicas refuse every execution as a write (a read that calls a function that writes, on a standby). */
        REPLICA_REFUSES_AS_WRITE("replica refuses as write") {
            @Override
            void inject(Servers servers) {
                servers.replicas.get(0).refusesWrites = true;
                servers.replicas.get(1).refusesWrites = true;
            }

            @Override
            int answered(Servers servers) {
                return servers.replicas.get(0).refusedExecutions.get() + servers.replicas.get(1).refusedExecutions.get();
            }
        },
        /** No replica is up, so the read goes to the primary, whose next execution breaks its connection (a failover). */
        PRIMARY_CONNECTION_ERROR("primary connection error") {
            @Override
            void inject(Servers servers) {
                servers.down(0);
                servers.down(1);
                servers.primary.failNextExecutions.set(1);
            }

            @Override
            int answered(Servers servers) {
                return servers.primary.failedExecutions.get();
            }
        };

        private final String label;

        Failure(String label) {
            this.label = label;
        }

        abstract void inject(Servers servers);

        /** How many executions the failure answered. */
        abstract int answered(Servers servers);

        @Override
        public String toString() {
            return label;
        }
    }

    /** The state the read runs in. */
    enum Mode {
        AUTOCOMMIT("autocommit"),
        TRANSACTION("transaction"),
        READ_ONLY_TRANSACTION("read-only transaction");

        private final String label;

        Mode(String label) {
            this.label = label;
        }

        void begin(Connection c) throws SQLException {
            if (this != AUTOCOMMIT) {
                c.setAutoCommit(false);
            }
            if (this == READ_ONLY_TRANSACTION) {
                c.setReadOnly(true);
            }
        }

        void end(Connection c) throws SQLException {
            if (this != AUTOCOMMIT) {
                c.rollback();
            }
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /**
     * What the caller sees.
     *
     * @param answeredBy the server whose row the read returned, or null when an SQLException reached the caller
     * @param sqlState   the SQLState of that exception, or null when the read was answered
     * @param failovers  the failover reasons counted ({@link #FAILOVER_REASONS}), with their counts
     * @param r1Up       whether r1 is in rotation afterwards
     * @param failures   how many executions the injected failure answered
     */
    record Outcome(String answeredBy, String sqlState, Map<String, Long> failovers, boolean r1Up, int failures) {
    }

    private static Outcome answered(String by, RouteReason failover, boolean r1Up, int failures) {
        return new Outcome(by, null, counted(failover), r1Up, failures);
    }

    private static Outcome thrown(String sqlState, boolean r1Up, int failures) {
        return new Outcome(null, sqlState, counted(null), r1Up, failures);
    }

    private static Map<String, Long> counted(RouteReason failover) {
        return failover == null ? Map.of() : Map.of(failover.name(), 1L);
    }

    /** The table: the outcome depends on the failure and the mode, never on the door. */
    static Outcome expected(Failure failure, Mode mode) {
        return switch (failure) {
            case REPLICA_CONNECTION_ERROR -> switch (mode) {
                // r1 is taken out of rotation, the read runs once more on r2
                case AUTOCOMMIT -> answered("r2", RouteReason.RETRY_REPLICA, R1_OUT, 1);
                // every statement of a transaction not declared read-only runs on the primary (RoutePolicy rule 4)
                case TRANSACTION -> answered("primary", null, R1_UP, 0);
                // the transaction's replica fails: it leaves rotation, but a transaction's read is never moved
                case READ_ONLY_TRANSACTION -> thrown(CONNECTION_ERROR, R1_OUT, 1);
            };
            case REPLICA_REFUSES_AS_WRITE -> switch (mode) {
                // the statement belongs on the primary; a refusal is not a failure of the replica
                case AUTOCOMMIT -> answered("primary", RouteReason.REPLICA_REFUSED_WRITE, R1_UP, 1);
                case TRANSACTION -> answered("primary", null, R1_UP, 0);
                // a read-only transaction cannot run it anywhere: the refusal reaches the caller
                case READ_ONLY_TRANSACTION -> thrown(REFUSED_AS_WRITE, R1_UP, 1);
            };
            // r1 is out of rotation in every row: the failure takes both replicas down to send the read to the primary
            case PRIMARY_CONNECTION_ERROR -> switch (mode) {
                // the read runs again once the primary answers
                case AUTOCOMMIT -> answered("primary", RouteReason.RETRY_PRIMARY, R1_OUT, 1);
                // a transaction's statement is never sent again after a connection error
                case TRANSACTION -> thrown(CONNECTION_ERROR, R1_OUT, 1);
                // no replica for the read-only transaction: its read goes to the primary, and is not moved either
                case READ_ONLY_TRANSACTION -> thrown(CONNECTION_ERROR, R1_OUT, 1);
            };
        };
    }

    static Stream<Arguments> everyCombination() {
        List<Arguments> all = new ArrayList<>();
        for (Door door : Door.values()) {
            for (Failure failure : Failure.values()) {
                for (Mode mode : Mode.values()) {
                    all.add(Arguments.of(door, failure, mode));
                }
            }
        }
        return all.stream();
    }

    private final Servers servers;

    FailoverDoorTableTest() throws SQLException {
        servers = new Servers(2, "round_robin_counting");   // the in-flight counts are checked
    }

    @AfterEach
    void close() throws SQLException {
        servers.close();
    }

    @ParameterizedTest(name = "{0} / {1} / {2}")
    @MethodSource("everyCombination")
    void aReadEndsAlikeWhicheverDoorItCameIn(Door door, Failure failure, Mode mode) throws SQLException {
        String name = door + " / " + failure + " / " + mode;
        failure.inject(servers);
        Read read;
        Connection leadsTo;
        try (Connection c = servers.open()) {
            mode.begin(c);
            try (Statement s = door.open(c)) {
                read = read(door, s);
                leadsTo = s.getConnection();
            }
            mode.end(c);
            assertSame(c, leadsTo, name + ": the statement leads back to the routing connection");
        }
        Outcome observed = new Outcome(read.answeredBy(), read.failure() == null ? null : read.failure().getSQLState(),
                failovers(), servers.set.isUp(servers.nodes.get(0)), failure.answered(servers));
        assertAll(name,
                () -> assertEquals(expected(failure, mode), observed,
                        () -> name + (read.failure() == null ? "" : " (the read threw " + read.failure() + ")")),
                () -> assertEquals(0, servers.nodes.get(0).inFlight(), name + ": r1 in flight after close"),
                () -> assertEquals(0, servers.nodes.get(1).inFlight(), name + ": r2 in flight after close"));
    }

    /** What the caller of the read saw: the server that answered, or the exception (one of the two is null). */
    private record Read(String answeredBy, SQLException failure) {
    }

    /** Runs the read and keeps what it ended in: the table expects either, so both are an observation here. */
    private static Read read(Door door, Statement s) {
        try (ResultSet rs = door.read(s)) {
            assertTrue(rs.next(), "who has its one row");
            return new Read(rs.getString(1), null);
        }
        catch (SQLException e) {
            return new Read(null, e);
        }
    }

    private Map<String, Long> failovers() {
        Map<String, Long> byReason = servers.router.statistics().byReason();
        Map<String, Long> counted = new TreeMap<>();
        for (RouteReason reason : FAILOVER_REASONS) {
            long n = byReason.getOrDefault(reason.name(), 0L);
            if (n != 0) {
                counted.put(reason.name(), n);
            }
        }
        return counted;
    }
}
