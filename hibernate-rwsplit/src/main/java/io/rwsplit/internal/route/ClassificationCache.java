package io.rwsplit.internal.route;

import java.util.List;

import io.rwsplit.internal.config.ShapeRule;
import io.rwsplit.internal.stats.QueryShapes;

/**
 * Remembers how recent SQL strings were classified, so that the statements Hibernate prepares again
 * and again (it reuses the same {@code String} for an entity loader or a cached query plan) are not
 * scanned again. Direct-mapped by the string's cached hash: one array read and, on a hit, one
 * reference comparison. Entries are immutable and replaced wholesale, so concurrent readers need no
 * lock: a racing reader sees either the old or the new entry, both correct.
 * <p>
 * Malformed hints are not cached: such SQL is classified (and rejected) every time.
 */
final class ClassificationCache {

    /**
     * One classified statement.
     *
     * @param effect what it leaves in the server's session ({@link SessionState})
     * @param shape  the counters of its query shape
     * @param rule   the first rule by query shape that matches it, or null
     */
    record Entry(String sql, SqlKind kind, SqlHint hint, SessionState.Effect effect, QueryShapes.Shape shape,
                 ShapeRule rule) {
    }

    /** The rules in force and the entries classified under them: replaced together, never one without the other. */
    private record Table(List<ShapeRule> rules, Entry[] entries) {
    }

    private static final int SIZE = 1024;

    private final Lexing lexing;
    private final QueryShapes shapes;
    private final List<ShapeRule> configured;
    private volatile Table table;

    /**
     * @param lexing the lexical rules of the database whose SQL this cache classifies
     * @param shapes where each statement's query shape is counted
     * @param rules  the rules by query shape, the first that matches applies
     */
    ClassificationCache(Lexing lexing, QueryShapes shapes, List<ShapeRule> rules) {
        this.lexing = lexing;
        this.shapes = shapes;
        this.configured = List.copyOf(rules);
        this.table = new Table(configured, new Entry[SIZE]);
    }

    /** The rules by query shape as configured (a rule by named query still names its query). */
    List<ShapeRule> configuredRules() {
        return configured;
    }

    /**
     * Classifies from now on under {@code rules} (the configured ones with their named queries resolved, once the
     * session factory knows them), forgetting every statement classified before.
     */
    void useRules(List<ShapeRule> rules) {
        table = new Table(List.copyOf(rules), new Entry[SIZE]);
    }

    /** The classification of {@code sql}, from the cache or computed and remembered. */
    Entry classify(String sql) {
        Table t = table;
        int slot = sql.hashCode() & (SIZE - 1);
        Entry entry = t.entries[slot];
        if (entry != null && (entry.sql == sql || entry.sql.equals(sql))) {
            return entry;
        }
        SqlKind kind = SqlClassifier.classify(sql, lexing);
        SqlFingerprint fingerprint = SqlFingerprint.of(sql);
        QueryShapes.Shape shape = shapes.shape(fingerprint.id(), fingerprint.text(), fingerprint.source(), isRead(kind));
        entry = new Entry(sql, kind, SqlClassifier.hint(sql), SessionState.effect(sql, kind, lexing), shape,
                rule(t.rules, fingerprint));
        t.entries[slot] = entry;
        return entry;
    }

    private static ShapeRule rule(List<ShapeRule> rules, SqlFingerprint f) {
        if (rules.isEmpty()) {
            return null;
        }
        String id = f.id();
        for (ShapeRule rule : rules) {
            if (rule.matches(id, f.text(), f.source())) {
                return rule;
            }
        }
        return null;
    }

    /** Reads for the read share: plain reads, locking reads and reads of primary functions ({@code SELECT nextval(...)}). */
    private static boolean isRead(SqlKind kind) {
        return kind == SqlKind.READ || kind == SqlKind.LOCKING_READ || kind == SqlKind.PRIMARY_FUNCTION;
    }
}
