package io.rwsplit.demo;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Prepares the databases, then runs every story under every consistency mode. */
final class Demo {

    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration NOTICEABLE_LAG = Duration.ofMillis(50);

    private final DemoOptions options;
    private final PrintStream out;

    Demo(DemoOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    List<RunResult> run() throws SQLException, InterruptedException {
        List<RunResult> results = new ArrayList<>();
        try (Backend backend = options.backend()) {
            out.println("Backend:  " + backend.description());
            backend.createSchema();
            LagProbe probe = new LagProbe(backend.primary(), backend.replicas());
            probe.install();
            seed(backend.primary(), options.users());
            Duration lag = probe.measure(SYNC_TIMEOUT);
            Duration think = options.maxThinkTime() != null ? options.maxThinkTime() : lag.multipliedBy(3).dividedBy(2);
            out.printf("Workload: %d concurrent users x %d rounds of \"write, pause 0-%d ms, read it back in a new request\"; "
                    + "replica lag at start %d ms%n%n", options.users(), options.iterations(), think.toMillis(), lag.toMillis());

            if (lag.compareTo(NOTICEABLE_LAG) < 0) {
                out.printf("Note:     the replicas lag only %d ms, so EVENTUAL may show few stale reads; give them a delay "
                        + "(%s)%n%n", lag.toMillis(), options.cluster() ? "--delay 1" : "--delay-ms 200");
            }
            StoryRunner runner = new StoryRunner(backend, probe, options.users(), options.iterations(), think, out);
            for (Story story : List.of(new ProfileEditStory(), new PlaceOrderStory())) {
                for (ConsistencyMode mode : ConsistencyMode.values()) {
                    out.printf("  running %s / %s%n", story.title(), mode);
                    results.add(runner.run(story, mode));
                }
            }
        }
        return results;
    }

    /** Users and their profiles, written to the primary; replication brings them to the replicas. */
    private static void seed(Database primary, int users) throws SQLException {
        try (Connection c = primary.connect();
             PreparedStatement user = c.prepareStatement("insert into app_user (id, name) values (?, ?)");
             PreparedStatement profile = c.prepareStatement(
                     "insert into profile (user_id, display_name, revision) values (?, ?, 0)")) {
            for (long id = 1; id <= users; id++) {
                user.setLong(1, id);
                user.setString(2, "user " + id);
                user.executeUpdate();
                profile.setLong(1, id);
                profile.setString(2, "user " + id);
                profile.executeUpdate();
            }
        }
    }
}
