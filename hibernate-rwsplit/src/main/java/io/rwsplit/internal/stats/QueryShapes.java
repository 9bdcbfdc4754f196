package io.rwsplit.internal.stats;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.rwsplit.QueryShapeStatistics;
import io.rwsplit.RouteReason;

/**
 * The query shapes of one factory, counted in a bounded table: up to {@code 4 * top} distinct shapes are tracked as
 * they first appear, the rest fold into one {@code other} row, and the {@code top} shapes with most statements are
 * reported (the tracked ones beyond them are folded into {@code other} in the report too). A shape is found once per
 * distinct SQL string (the classification cache keeps it beside the classification); counting is lock-free
 * ({@link LongAdder}), with no lookup and no allocation.
 * <p>
 * Every statement and execution is counted; execution times are those of a sample ({@code timeSample}): each shape's
 * first {@value #ALWAYS_TIMED} executions, then one in {@code timeSample} at random, since reading the clock twice
 * costs a routed statement more than everything else it counts. Each timed execution stands for as many as it was
 * drawn from (the first ones for one each, a sampled one for {@code timeSample}), so that the mean estimates that of
 * every execution, not of the first ones; the longest time is that of the timed executions.
 */
public final class QueryShapes {

    private static final RouteReason[] REASONS = RouteReason.values();

    /** Each shape's first executions are all timed, so that a shape seldom run has times too. */
    static final int ALWAYS_TIMED = 8;

    /** One shape's counters. */
    public static final class Shape {
        private final String id;
        private final String text;
        private final String source;
        private final boolean read;
        private final LongAdder[] byReason = new LongAdder[REASONS.length];
        private final int timeSample;
        /** How many executions were timed, as far as this thread knows (racy on purpose: it only ends the warm-up). */
        private int timedSoFar;
        // the timed executions' times, each multiplied by its weight (the executions it stands for), and the weights
        private final LongAdder primaryExecutions = new LongAdder();
        private final LongAdder primaryWeights = new LongAdder();
        private final LongAdder primaryNanos = new LongAdder();
        private final AtomicLong primaryMax = new AtomicLong();
        private final LongAdder replicaExecutions = new LongAdder();
        private final LongAdder replicaWeights = new LongAdder();
        private final LongAdder replicaNanos = new LongAdder();
        private final AtomicLong replicaMax = new AtomicLong();
        private final LongAdder audited = new LongAdder();
        private final LongAdder staleUnit = new LongAdder();
        private final LongAdder staleSession = new LongAdder();

        Shape(String id, String text, String source, boolean read, int timeSample) {
            this.timeSample = timeSample;
            this.id = id;
            this.text = text;
            this.source = source;
            this.read = read;
            for (int i = 0; i < byReason.length; i++) {
                byReason[i] = new LongAdder();
            }
        }

        /** Whether statements of this shape are reads. */
        public boolean read() {
            return read;
        }

        /** A statement of this shape was routed for {@code reason}. */
        public void routed(RouteReason reason) {
            byReason[reason.ordinal()].increment();   // the one count of a statement: every total is summed from these
        }

        /**
         * Whether the execution of this shape that begins now is timed: 0 when it is only counted
         * ({@link #executed(boolean)}), else the number of executions its time stands for, its weight
         * ({@link #executed(boolean, long, int)}): 1 for each of the shape's first executions, the sample's size for one
         * drawn at random after them. No lock, no allocation.
         */
        public int timesNext() {
            if (timeSample <= 1 || timedSoFar < ALWAYS_TIMED) {
                return 1;
            }
            return java.util.concurrent.ThreadLocalRandom.current().nextInt(timeSample) == 0 ? timeSample : 0;
        }

        /** A statement of this shape executed on a replica or on the primary, not timed. */
        public void executed(boolean onReplica) {
            (onReplica ? replicaExecutions : primaryExecutions).increment();
        }

        /** A statement of this shape executed for {@code nanos} on a replica or on the primary, timed for itself alone. */
        public void executed(boolean onReplica, long nanos) {
            executed(onReplica, nanos, 1);
        }

        /**
         * A statement of this shape executed for {@code nanos} on a replica or on the primary, timed as {@code weight}
         * executions ({@link #timesNext()}).
         */
        public void executed(boolean onReplica, long nanos, int weight) {
            if (timedSoFar < ALWAYS_TIMED) {
                timedSoFar++;
            }
            if (onReplica) {
                replicaExecutions.increment();
                replicaWeights.add(weight);
                replicaNanos.add(nanos * weight);
                raise(replicaMax, nanos);
            }
            else {
                primaryExecutions.increment();
                primaryWeights.add(weight);
                primaryNanos.add(nanos * weight);
                raise(primaryMax, nanos);
            }
        }

        /** The audit checked a read of this shape: stale against the unit, against the session. */
        public void audited(boolean staleAgainstUnit, boolean staleAgainstSession) {
            audited.increment();
            if (staleAgainstUnit) {
                staleUnit.increment();
            }
            if (staleAgainstSession) {
                staleSession.increment();
            }
        }

        private static void raise(AtomicLong max, long nanos) {
            long m = max.get();
            while (nanos > m && !max.compareAndSet(m, nanos)) {
                m = max.get();
            }
        }

        long statements() {
            long sum = 0;
            for (LongAdder a : byReason) {
                sum += a.sum();
            }
            return sum;
        }

        /** Statements of this shape routed to a replica: those of the reasons whose target is a replica. */
        long replicaStatements() {
            long sum = 0;
            for (RouteReason r : REASONS) {
                if (r.target() == io.rwsplit.Target.REPLICA) {
                    sum += byReason[r.ordinal()].sum();
                }
            }
            return sum;
        }

        QueryShapeStatistics snapshot() {
            return merged(id, text, source, read, List.of(this));
        }
    }

    private final int top;
    private final int capacity;
    private final ConcurrentHashMap<String, Shape> shapes = new ConcurrentHashMap<>();
    private final int timeSample;
    private final Shape readsBeyond;
    private final Shape othersBeyond;

    /** Every execution timed. @param top how many shapes a report lists (at least 1) */
    public QueryShapes(int top) {
        this(top, 1);
    }

    /**
     * @param top        how many shapes a report lists (at least 1)
     * @param timeSample one execution in this many is timed, after each shape's first {@value #ALWAYS_TIMED} (at
     *                   least 1: every one)
     */
    public QueryShapes(int top, int timeSample) {
        if (top < 1) {
            throw new IllegalArgumentException("top must be at least 1: " + top);
        }
        if (timeSample < 1) {
            throw new IllegalArgumentException("timeSample must be at least 1: " + timeSample);
        }
        this.top = top;
        this.capacity = 4 * top;
        this.timeSample = timeSample;
        this.readsBeyond = new Shape(QueryShapeStatistics.OTHER, "(other reads)", null, true, timeSample);
        this.othersBeyond = new Shape(QueryShapeStatistics.OTHER, "(other statements)", null, false, timeSample);
    }

    /**
     * The shape of normalised SQL {@code text}: the tracked one, a new one while the table has room, else the
     * {@code other} row of its kind. Called once per distinct SQL string, not per statement.
     */
    public Shape shape(String id, String text, String source, boolean read) {
        Shape known = shapes.get(text);
        if (known != null) {
            return known;
        }
        if (shapes.size() >= capacity) {
            return read ? readsBeyond : othersBeyond;
        }
        return shapes.computeIfAbsent(text, t -> new Shape(id, t, source, read, timeSample));
    }

    /**
     * Statements routed for {@code reason}, of every shape (those beyond the tracked ones too): every statement is
     * counted once, by its shape, and the factory's totals are summed from these counts.
     */
    public long count(RouteReason reason) {
        int r = reason.ordinal();
        long total = readsBeyond.byReason[r].sum() + othersBeyond.byReason[r].sum();
        for (Shape s : shapes.values()) {
            total += s.byReason[r].sum();
        }
        return total;
    }

    /** {@link #count} of every reason, by ordinal, in one pass over the shapes. */
    public long[] countsByReason() {
        long[] counts = new long[REASONS.length];
        add(counts, readsBeyond);
        add(counts, othersBeyond);
        for (Shape s : shapes.values()) {
            add(counts, s);
        }
        return counts;
    }

    private static void add(long[] counts, Shape s) {
        for (int r = 0; r < counts.length; r++) {
            counts[r] += s.byReason[r].sum();
        }
    }

    /** Reads routed (statements of read shapes), wherever they ran. */
    public long reads() {
        return sum(true, false);
    }

    /** Reads served by replicas. */
    public long replicaReads() {
        return sum(true, true);
    }

    private long sum(boolean reads, boolean replicaOnly) {
        long total = 0;
        for (Shape s : all()) {
            if (s.read == reads) {
                total += replicaOnly ? s.replicaStatements() : s.statements();
            }
        }
        return total;
    }

    /**
     * The {@code top} shapes with most statements, most first, then one {@code other} row for the rest (when there is
     * any).
     */
    public List<QueryShapeStatistics> report() {
        List<Shape> ranked = new ArrayList<>(shapes.values());
        ranked.sort(Comparator.comparingLong(Shape::statements).reversed().thenComparing(s -> s.id));
        List<QueryShapeStatistics> result = new ArrayList<>();
        List<Shape> rest = new ArrayList<>(List.of(readsBeyond, othersBeyond));
        for (Shape s : ranked) {
            if (s.statements() == 0) {
                continue;
            }
            if (result.size() < top) {
                result.add(s.snapshot());
            }
            else {
                rest.add(s);
            }
        }
        QueryShapeStatistics other = merged(QueryShapeStatistics.OTHER, "(other shapes)", null,
                rest.stream().anyMatch(s -> s.read && s.statements() > 0), rest);
        if (other.statements() > 0) {
            result.add(other);
        }
        return List.copyOf(result);
    }

    /**
     * The read shapes with most reads on the primary, most first, at most {@code top}: where reads stay on the
     * primary, and why ({@link QueryShapeStatistics#byReason()}).
     */
    public List<QueryShapeStatistics> primaryReads() {
        List<Shape> ranked = new ArrayList<>();
        for (Shape s : all()) {
            if (s.read && s.statements() - s.replicaStatements() > 0) {
                ranked.add(s);
            }
        }
        ranked.sort(Comparator.comparingLong((Shape s) -> s.statements() - s.replicaStatements()).reversed()
                .thenComparing(s -> s.id));
        return ranked.stream().limit(top).map(Shape::snapshot).toList();
    }

    /**
     * Several reports as one (the tenants of a multi-tenant factory): the rows of one id added together, ordered by
     * {@code order}, most first.
     */
    public static List<QueryShapeStatistics> combine(List<List<QueryShapeStatistics>> reports,
                                                     Comparator<QueryShapeStatistics> order) {
        Map<String, QueryShapeStatistics> byId = new java.util.LinkedHashMap<>();
        for (List<QueryShapeStatistics> report : reports) {
            for (QueryShapeStatistics row : report) {
                byId.merge(row.id(), row, QueryShapes::add);
            }
        }
        List<QueryShapeStatistics> rows = new ArrayList<>(byId.values());
        rows.sort(order.reversed().thenComparing(QueryShapeStatistics::id));
        return List.copyOf(rows);
    }

    private static QueryShapeStatistics add(QueryShapeStatistics a, QueryShapeStatistics b) {
        Map<RouteReason, Long> reasons = new EnumMap<>(RouteReason.class);
        reasons.putAll(a.byReason());
        b.byReason().forEach((r, n) -> reasons.merge(r, n, Long::sum));
        long pe = a.primaryExecutions() + b.primaryExecutions();
        long re = a.replicaExecutions() + b.replicaExecutions();
        return new QueryShapeStatistics(a.id(), a.sql(), a.source() != null ? a.source() : b.source(), a.read() || b.read(),
                a.statements() + b.statements(), a.replicaStatements() + b.replicaStatements(), reasons, pe,
                weighted(a.primaryMeanTime(), a.primaryExecutions(), b.primaryMeanTime(), b.primaryExecutions()),
                max(a.primaryMaxTime(), b.primaryMaxTime()), re,
                weighted(a.replicaMeanTime(), a.replicaExecutions(), b.replicaMeanTime(), b.replicaExecutions()),
                max(a.replicaMaxTime(), b.replicaMaxTime()), a.auditedReads() + b.auditedReads(),
                a.staleAgainstUnit() + b.staleAgainstUnit(), a.staleAgainstSession() + b.staleAgainstSession());
    }

    private static Duration weighted(Duration a, long na, Duration b, long nb) {
        return na + nb == 0 ? Duration.ZERO : Duration.ofNanos((a.toNanos() * na + b.toNanos() * nb) / (na + nb));
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private List<Shape> all() {
        List<Shape> all = new ArrayList<>(shapes.values());
        all.add(readsBeyond);
        all.add(othersBeyond);
        return all;
    }

    private static QueryShapeStatistics merged(String id, String text, String source, boolean read, List<Shape> parts) {
        Map<RouteReason, Long> byReason = new EnumMap<>(RouteReason.class);
        long statements = 0;
        long replica = 0;
        long pe = 0;
        long pt = 0;
        long pn = 0;
        long pm = 0;
        long re = 0;
        long rt = 0;
        long rn = 0;
        long rm = 0;
        long audited = 0;
        long staleUnit = 0;
        long staleSession = 0;
        for (Shape s : parts) {
            audited += s.audited.sum();
            staleUnit += s.staleUnit.sum();
            staleSession += s.staleSession.sum();
            for (RouteReason r : REASONS) {
                long n = s.byReason[r.ordinal()].sum();
                if (n != 0) {
                    byReason.merge(r, n, Long::sum);
                    statements += n;
                }
            }
            replica += s.replicaStatements();
            pe += s.primaryExecutions.sum();
            pt += s.primaryWeights.sum();
            pn += s.primaryNanos.sum();
            pm = Math.max(pm, s.primaryMax.get());
            re += s.replicaExecutions.sum();
            rt += s.replicaWeights.sum();
            rn += s.replicaNanos.sum();
            rm = Math.max(rm, s.replicaMax.get());
        }
        return new QueryShapeStatistics(id, text, source, read, statements, replica, byReason, pe, mean(pn, pt),
                Duration.ofNanos(pm), re, mean(rn, rt), Duration.ofNanos(rm), audited, staleUnit, staleSession);
    }

    private static Duration mean(long nanos, long count) {
        return count == 0 ? Duration.ZERO : Duration.ofNanos(nanos / count);
    }
}
