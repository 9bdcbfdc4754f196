package io.rwsplit.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where hibernate-rwsplit's CPU time per operation goes, from the stacks async-profiler sampled while
 * {@link io.rwsplit.bench.overhead.CostProfile} ran plain Hibernate and hibernate-rwsplit side by side (its
 * {@code collapsed} output: one line per distinct stack, frames from the thread's root to the running one, separated
 * by {@code ;}, then a space and the number of samples). A sample belongs to the side whose batch method is in its
 * stack; its share of that side's samples, times that side's CPU time per operation, is what it costs per operation.
 * <p>
 * Every sample of the routed side is charged to the frame it ran in, skipping the JDK's own frames and native
 * ones (a {@code ThreadLocal.get} is charged to the code that called it). Samples charged to hibernate-rwsplit's code
 * are hibernate-rwsplit's <em>own code</em>, divided into steps by the innermost of its frames that a step names
 * (looking through small types every step uses, {@link #SEE_THROUGH}); samples charged to other code below one of its
 * frames (the driver, the pool, Hibernate called back) are <em>called by it</em> (mostly the work plain Hibernate does
 * too: the query, the pool's lend and return). What is left of the difference lies in code both sides run, by package.
 * <p>
 * Usage: {@code CostBreakdown <results dir>} (with {@code cpu.properties} and {@code stacks.collapsed}); prints the
 * tables and writes {@code breakdown.tsv} there.
 */
public final class CostBreakdown {

    /** A step of routing and the classes (or {@code Class.method}s) whose frames belong to it; the first match wins. */
    private record Step(String name, List<String> frames) {
    }

    private static final List<Step> STEPS = List.of(
            new Step("statistics (query shapes, per replica)",
                    List.of("QueryShapes", "FactoryStatistics", "SessionStatistics", "CombinedStatistics")),
            new Step("stale-read audit (one read in 100 checked)", List.of("ReadAudit")),
            new Step("replica choice (load balancer)",
                    List.of("ThreadAffinityBalancer", "RoundRobinBalancer", "RandomBalancer", "WeightedBalancer",
                            "LeastLagBalancer", "LeastInFlightBalancer", "ReplicaSet.choose")),
            new Step("commit position of a write", List.of("CausalReads.capture", "CausalReads.captureAfterCommit",
                    "CausalReads.commitCapturing", "CausalReads.commitsWithPosition", "CausalReads.captureElsewhere",
                    "CommitCapture", "Tokens", "TokenTrust")),
            new Step("session attachment (extension, listener, hand-off to the provider)",
                    List.of("SessionAttacher", "RwSplitExtensionIntegration", "ExtendedRwSplitSession", "RwSplitSession",
                            "AcquiringSessions", "SessionRouting.<init>", "CausalReads.newSession", "SessionConsistency")),
            new Step("physical connections borrowed and given back (replica, or primary for a write)",
                    List.of("ReplicaConnection", "LentConnections", "ReplicaNode", "ReplicaSet.checkServerRun",
                            "Router.borrow", "Router.giveBack", "PhysicalConnections")),
            new Step("logical connection opened and closed",
                    List.of("Router.open", "Router.idle", "IdleConnections", "ConnectionRouting.resume",
                            "ConnectionRouting.close", "ConnectionRouting.clearSession", "RoutingConnection.<init>",
                            "RoutingConnection.close", "RoutingConnectionProvider")),
            new Step("route decision (classification, policy, consistency gate)",
                    List.of("ConnectionRouting", "ClassificationCache", "ConsistencyGate", "RoutePolicy", "Router.served",
                            "SessionRouting", "CausalReads", "TransactionTracker", "ConnectionSession", "StatementRoute")),
            new Step("statement and result-set wrappers (failover, parameters kept)",
                    List.of("RoutedPreparedStatement", "RoutedStatement", "RoutedCallableStatement",
                            "ForwardingPreparedStatement", "ForwardingCallableStatement", "PreparedStatementHandle",
                            "StatementHandle", "ReplicaStatement", "PrimaryStatement", "StatementDoors", "StatementShape",
                            "StatementOptions", "RoutedResultSet", "RoutedMetaData", "ResultsOwner", "InFlightCounts",
                            "Failover", "RoutingConnection")));

    /**
     * Small types every step uses (a clock, a token, a replica's node, a position): a frame of theirs is looked through
     * to the step that called it, as the JDK's frames are.
     */
    private static final java.util.Set<String> SEE_THROUGH = java.util.Set.of("Clock", "ConsistencyToken", "ReplicaNode",
            "UnitPosition", "GtidPosition", "LsnPosition", "MySqlGtidSet", "Durations");

    /** A hidden class's name as async-profiler prints it ({@code Foo$$Lambda$613/0x00007f...} or {@code Foo$$Lambda.0x...}). */
    private static final java.util.regex.Pattern HIDDEN = java.util.regex.Pattern.compile("\\$\\$Lambda(\\$\\d+)?[./]0x[0-9a-f]+");

    private static final String BASELINE = "CostProfile.baselineBatch";
    private static final String ROUTED = "CostProfile.routedBatch";

    private CostBreakdown() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: CostBreakdown <results dir>");
        }
        Locale.setDefault(Locale.ROOT);
        Path dir = Path.of(args[0]);
        Map<String, String> cpu = ResultFiles.meta(dir.resolve("cpu.properties"));
        double baselineNanos = Double.parseDouble(cpu.get("baseline_cpu_ns"));
        double routedNanos = Double.parseDouble(cpu.get("routed_cpu_ns"));
        Map<String, Long> own = new LinkedHashMap<>();
        Map<String, Long> called = new LinkedHashMap<>();
        Map<String, Long> baselinePackages = new HashMap<>();
        Map<String, Long> routedPackages = new HashMap<>();
        long baselineSamples = 0;
        long routedSamples = 0;
        for (String line : Files.readAllLines(dir.resolve("stacks.collapsed"), StandardCharsets.UTF_8)) {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            long count = Long.parseLong(line.substring(space + 1).trim());
            String[] frames = line.substring(0, space).split(";");
            for (int i = 0; i < frames.length; i++) {
                // a Java frame has a '/' in its class's name (io/rwsplit/...); native ones have none
                String f = frames[i];
                frames[i] = f.indexOf('/') < 0 || f.indexOf(' ') >= 0 ? "native " + f
                        : HIDDEN.matcher(f).replaceAll(java.util.regex.Matcher.quoteReplacement("$$Lambda")).replace('/', '.');
            }
            boolean baseline = contains(frames, BASELINE);
            boolean routed = contains(frames, ROUTED);
            if (baseline == routed) {
                continue;   // neither side's batch (start-up, warm-up of nothing, another thread)
            }
            String charged = chargedFrame(frames);
            if (baseline) {
                baselineSamples += count;
                baselinePackages.merge(packageOf(charged), count, Long::sum);
                continue;
            }
            routedSamples += count;
            routedPackages.merge(packageOf(charged), count, Long::sum);
            String step = step(frames);
            if (step == null) {
                continue;
            }
            if (ours(charged)) {
                own.merge(step, count, Long::sum);
            }
            else {
                called.merge(step, count, Long::sum);
            }
        }
        if (baselineSamples == 0 || routedSamples == 0) {
            throw new IllegalStateException("no samples of " + (baselineSamples == 0 ? BASELINE : ROUTED)
                    + " in " + dir.resolve("stacks.collapsed"));
        }
        double perRouted = routedNanos / routedSamples;
        double perBaseline = baselineNanos / baselineSamples;
        StringBuilder md = new StringBuilder();
        md.append(String.format("%s on H2: plain Hibernate %.0f ns CPU per operation, hibernate-rwsplit %.0f ns (%.3f; %+.0f ns); "
                        + "%d and %d samples%n%n", cpu.get("operation"), baselineNanos, routedNanos, routedNanos / baselineNanos,
                routedNanos - baselineNanos, baselineSamples, routedSamples));
        md.append("| step | hibernate-rwsplit's own code, ns per operation | other code it calls (driver, pool, Hibernate), ns |\n");
        md.append("|---|---:|---:|\n");
        List<String> tsv = new ArrayList<>();
        tsv.add("step\town_ns\tcalled_ns");
        List<String> steps = new ArrayList<>(own.keySet());
        called.keySet().stream().filter(s -> !own.containsKey(s)).forEach(steps::add);
        steps.sort(Comparator.comparingLong((String s) -> own.getOrDefault(s, 0L)).reversed());
        long ownTotal = 0;
        long calledTotal = 0;
        for (String step : steps) {
            long o = own.getOrDefault(step, 0L);
            long c = called.getOrDefault(step, 0L);
            ownTotal += o;
            calledTotal += c;
            md.append(String.format("| %s | %.0f | %.0f |%n", step, o * perRouted, c * perRouted));
            tsv.add(String.format("%s\t%.1f\t%.1f", step, o * perRouted, c * perRouted));
        }
        md.append(String.format("| **all** | **%.0f** | %.0f |%n%n", ownTotal * perRouted, calledTotal * perRouted));
        md.append("Where the rest of the difference lies: the samples of each side by the package they ran in "
                + "(hibernate-rwsplit's own code included), routed minus plain, ns per operation, the largest first:\n\n");
        md.append("| package | plain Hibernate | hibernate-rwsplit | difference |\n|---|---:|---:|---:|\n");
        List<String> packages = new ArrayList<>(routedPackages.keySet());
        baselinePackages.keySet().stream().filter(p -> !routedPackages.containsKey(p)).forEach(packages::add);
        Map<String, Double> difference = new HashMap<>();
        for (String p : packages) {
            difference.put(p, routedPackages.getOrDefault(p, 0L) * perRouted - baselinePackages.getOrDefault(p, 0L) * perBaseline);
        }
        packages.sort(Comparator.comparingDouble((String p) -> Math.abs(difference.get(p))).reversed());
        for (String p : packages.subList(0, Math.min(12, packages.size()))) {
            md.append(String.format("| %s | %.0f | %.0f | %+.0f |%n", p, baselinePackages.getOrDefault(p, 0L) * perBaseline,
                    routedPackages.getOrDefault(p, 0L) * perRouted, difference.get(p)));
        }
        System.out.print(md);
        Files.write(dir.resolve("breakdown.tsv"), tsv, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("breakdown.md"), md.toString(), StandardCharsets.UTF_8);
    }

    private static boolean contains(String[] frames, String method) {
        for (String f : frames) {
            if (f.endsWith(method)) {
                return true;
            }
        }
        return false;
    }

    /** The frame a sample is charged to: the running one, or the nearest caller that is not the JDK's or native. */
    static String chargedFrame(String[] frames) {
        for (int i = frames.length - 1; i >= 0; i--) {
            String f = frames[i];
            if (f.startsWith("java.") || f.startsWith("jdk.") || f.startsWith("sun.") || f.startsWith("native ")) {
                continue;
            }
            return f;
        }
        return "native";
    }

    private static boolean ours(String frame) {
        return frame.startsWith("io.rwsplit.") && !frame.startsWith("io.rwsplit.bench.");
    }

    /** The step of the innermost of hibernate-rwsplit's frames that a step names, or null when it has none of ours. */
    static String step(String[] frames) {
        String fallback = null;
        for (int i = frames.length - 1; i >= 0; i--) {
            String f = frames[i];
            if (!ours(f)) {
                continue;
            }
            String simple = simpleMethod(f);
            String type = simple.indexOf('.') < 0 ? simple : simple.substring(0, simple.indexOf('.'));
            int nested = type.indexOf('$');
            if (SEE_THROUGH.contains(nested < 0 ? type : type.substring(0, nested))) {
                continue;
            }
            for (Step step : STEPS) {
                for (String name : step.frames()) {
                    if (simple.equals(name) || simple.startsWith(name + ".") || simple.startsWith(name + "$")) {
                        return step.name();
                    }
                }
            }
            if (fallback == null) {
                fallback = "other: " + simple;
            }
        }
        return fallback;
    }

    /** {@code io.rwsplit.internal.route.Router.open} as {@code Router.open}. */
    private static String simpleMethod(String frame) {
        int method = frame.lastIndexOf('.');
        int type = method > 0 ? frame.lastIndexOf('.', method - 1) : -1;
        return frame.substring(type + 1);
    }

    private static String packageOf(String frame) {
        String[] parts = frame.split("\\.");
        return parts.length <= 3 ? frame : parts[0] + "." + parts[1] + "." + parts[2];
    }
}
