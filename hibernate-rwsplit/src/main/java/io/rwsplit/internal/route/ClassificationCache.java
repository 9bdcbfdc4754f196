package io.rwsplit.internal.route;

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
     */
    record Entry(String sql, SqlKind kind, SqlHint hint, SessionState.Effect effect) {
    }

    private static final int SIZE = 1024;

    private final Entry[] entries = new Entry[SIZE];
    private final Lexing lexing;

    /** @param lexing the lexical rules of the database whose SQL this cache classifies */
    ClassificationCache(Lexing lexing) {
        this.lexing = lexing;
    }

    /** The classification of {@code sql}, from the cache or computed and remembered. */
    Entry classify(String sql) {
        int slot = sql.hashCode() & (SIZE - 1);
        Entry entry = entries[slot];
        if (entry != null && (entry.sql == sql || entry.sql.equals(sql))) {
            return entry;
        }
        SqlKind kind = SqlClassifier.classify(sql, lexing);
        entry = new Entry(sql, kind, SqlClassifier.hint(sql), SessionState.effect(sql, kind));
        entries[slot] = entry;
        return entry;
    }
}
