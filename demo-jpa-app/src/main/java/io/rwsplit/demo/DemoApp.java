package io.rwsplit.demo;

import java.util.List;

/**
 * Entry point: {@code java -jar demo-jpa-app/target/demo-jpa-app.jar [--cluster [postgres]] [options]}. Exit code 0
 * when READ_YOUR_WRITES showed no stale read, 1 when it did, 2 for bad options or a failed run.
 */
public final class DemoApp {

    private DemoApp() {
    }

    public static void main(String[] args) {
        DemoOptions options;
        try {
            options = DemoOptions.parse(args);
        }
        catch (IllegalArgumentException e) {
            System.err.println("demo: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.print(DemoOptions.USAGE);
            return;
        }
        List<RunResult> results;
        try {
            results = new Demo(options, System.out).run();
        }
        catch (Exception e) {
            System.err.println("demo failed: " + e);
            e.printStackTrace();
            System.exit(2);
            return;
        }
        Report.print(results, System.out);
        System.exit(verdict(results));
    }

    private static int verdict(List<RunResult> results) {
        long fixedReads = 0;
        long fixedStale = 0;
        long brokenStale = 0;
        for (RunResult r : results) {
            if (r.mode() == ConsistencyMode.READ_YOUR_WRITES) {
                fixedReads += r.reads();
                fixedStale += r.staleReads();
            }
            else {
                brokenStale += r.staleReads();
            }
        }
        System.out.println();
        System.out.println("EVENTUAL: " + brokenStale + " stale reads: users did not see their own writes.");
        if (fixedStale > 0) {
            System.out.println("READ_YOUR_WRITES: FAILED, " + fixedStale + " stale reads out of " + fixedReads + ".");
            return 1;
        }
        System.out.println("READ_YOUR_WRITES: 0 stale reads out of " + fixedReads + ".");
        return 0;
    }
}
