package io.rwsplit.demo;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The table the demo prints. */
final class Report {

    private Report() {
    }

    static void print(List<RunResult> results, PrintStream out) {
        String row = "%-25s %-17s %6s %12s %13s %11s  %-26s %s%n";
        out.println();
        out.println("Does the next request show the user's own write?");
        out.println();
        out.printf(row, "story", "consistency", "reads", "stale reads", "audit u / s", "on replica", "replica lag",
                "read routing (reason=statements)");
        for (RunResult r : results) {
            out.printf(row, r.story(), r.mode(), r.reads(),
                    r.staleReads() + " (" + percent((double) r.staleReads() / Math.max(1, r.reads())) + ")", r.audit(),
                    percent(r.replicaShare()), r.lag(), reasons(r.readReasons()));
        }
        out.println();
        out.println("All statements of each run (writes included), from RwSplit.statistics(entityManagerFactory):");
        for (RunResult r : results) {
            out.printf("  %-25s %-17s primary %5d, replica %5d  %s%n", r.story(), r.mode(),
                    r.allStatementsOnPrimary(), r.allStatementsOnReplica(), reasons(r.allReasons()));
        }
        out.println();
        out.println("Where reads stayed on the primary, the top read shapes of each run, from"
                + " RwSplit.statistics(entityManagerFactory).primaryReadShapes():");
        for (RunResult r : results) {
            out.printf("  %-25s %-17s%s%n", r.story(), r.mode(), r.primaryReadShapes().isEmpty() ? " nowhere" : "");
            for (io.rwsplit.QueryShapeStatistics q : r.primaryReadShapes()) {
                String sql = q.sql().length() <= 90 ? q.sql() : q.sql().substring(0, 90) + "...";
                out.printf("    %s %5d of %5d on the primary  %s  %s%n", q.id(), q.primaryStatements(), q.statements(),
                        reasons(names(q.byReason())), sql);
            }
        }
        out.println();
        out.println("""
                reads        read requests: a new EntityManager per request, reading what the user just wrote
                stale reads  the read did not show the user's own committed write (checked by the demo)
                audit u / s  the library's stale-read audit of the same run, every replica read audited
                             (RwSplit.statistics(entityManagerFactory)): u = staleReadsAgainstUnit(), reads whose
                             replica had not applied some write (any user's) committed before they began, so it can
                             exceed the demo's count, which checks the user's own write; s = staleReadsAgainstSession(),
                             reads whose replica lacked what their consistency level required (EVENTUAL requires
                             nothing); "unavailable" where no replica position can be read (H2), "-" where no read
                             went to a replica
                on replica   share of the read requests' statements that a replica served
                read routing summed over the read requests: RwSplit.statistics(entityManager).byReason(),
                             taken in each request just before it closed
                replica lag  heartbeat committed on the primary, timed until every replica shows it, during the run
                READ_YOUR_WRITES is honoured in the library's 'auto' mode: on H2 by time (a user's reads stay on the
                             primary for hibernate.rwsplit.read_your_writes_window after their write), on MariaDB by
                             GTID and on PostgreSQL by WAL position (LSN): a replica that applied the user's last
                             write, else the primary""");
    }

    private static Map<String, Long> names(Map<io.rwsplit.RouteReason, Long> byReason) {
        Map<String, Long> named = new java.util.LinkedHashMap<>();
        byReason.forEach((reason, n) -> {
            if (reason.target() == io.rwsplit.Target.PRIMARY) {
                named.put(reason.name(), n);
            }
        });
        return named;
    }

    private static String percent(double share) {
        return Math.round(share * 100) + "%";
    }

    private static String reasons(Map<String, Long> byReason) {
        return byReason.isEmpty() ? "-" : byReason.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }
}
