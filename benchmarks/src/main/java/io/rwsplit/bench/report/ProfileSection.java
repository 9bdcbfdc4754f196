package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The tables of {@link CostBreakdown} (one per profiled operation, {@code <results dir>/<operation>/breakdown.md}) as
 * the section "Where hibernate-rwsplit's CPU time goes" of {@code docs/benchmarks.md}, between its markers, with the
 * run's command and date: {@code scripts/bench.sh profile --page}. A full run keeps the section as it is.
 * <p>
 * Usage: {@code ProfileSection <results dir> <markdown file>}
 */
public final class ProfileSection {

    static final String BEGIN = "<!-- profile:begin -->";
    static final String END = "<!-- profile:end -->";

    private static final List<String> OPERATIONS = List.of("findById", "jpqlQuery", "writeTransaction");

    private ProfileSection() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: ProfileSection <results dir> <markdown file>");
        }
        Locale.setDefault(Locale.ROOT);
        Path dir = Path.of(args[0]);
        Map<String, String> meta = ResultFiles.meta(dir.resolve("meta.properties"));
        StringBuilder md = new StringBuilder();
        md.append(BEGIN).append('\n').append("## Where hibernate-rwsplit's CPU time goes\n\n");
        md.append(ResultFiles.generatedBy(meta));
        md.append("Plain Hibernate and hibernate-rwsplit at its defaults on in-memory H2 (HikariCP on both sides), open side by "
                + "side in one JVM and run in interleaved batches of 2,000 operations for " + meta.getOrDefault("profile_seconds", "?")
                + " s an operation, each side through a method of its own, after " + meta.getOrDefault("profile_warmup_seconds", "?")
                + " s of warm-up through a third method that neither side counts. async-profiler was asked to sample each "
                + "thread every " + meta.getOrDefault("profile_interval", "?") + " of its CPU time (`event="
                + meta.getOrDefault("profile_event", "?") + "`; the samples each side got are under each operation); taking "
                + "them costs CPU time on both sides, which part 1b's figures, measured without a profiler, do not have. Each side's CPU time per operation is measured as in part 1b (the calling "
                + "thread's); a sample's share of its side's samples, times that figure, is what it costs per operation. A "
                + "sample is charged to the frame it ran in, or, in the JDK's own code (a `ThreadLocal.get`, an atomic "
                + "update) or in native code, to the nearest caller outside them: charged to hibernate-rwsplit's code it "
                + "is the module's *own code*, divided into steps by the innermost of its frames a step names (a few small "
                + "types every step uses, such as the clock and the replica's node, are looked through to their caller); "
                + "charged to other code below one of its frames it is *other code it calls*: the driver and the pool "
                + "(mostly what plain Hibernate calls too: the query, the pool's lend and return), and Hibernate where the "
                + "module calls back into it. The second table of each operation puts every sample of both sides by "
                + "package, to show where the rest of the difference lies. One JVM, so the JIT's choices of that JVM are "
                + "in it (part 1b's forks differ by a few per cent); a step of a few ns is within the sampling's spread. "
                + "**Pass rule: none of its own**; part 1b's CPU goals bound the sum.\n\n");
        boolean any = false;
        for (String operation : OPERATIONS) {
            Path table = dir.resolve(operation).resolve("breakdown.md");
            if (!Files.isRegularFile(table)) {
                continue;
            }
            any = true;
            md.append("### ").append(operation).append("\n\n").append(Files.readString(table, StandardCharsets.UTF_8).strip())
                    .append("\n\n");
        }
        if (!any) {
            throw new IllegalStateException("no breakdown.md of " + OPERATIONS + " under " + dir);
        }
        md.append(END);
        ResultFiles.rewrite(Path.of(args[1]), md.toString(), BEGIN, END);
    }
}
