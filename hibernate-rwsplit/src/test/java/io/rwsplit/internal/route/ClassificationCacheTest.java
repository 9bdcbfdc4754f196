package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ClassificationCacheTest {

    private final ClassificationCache cache = new ClassificationCache(Lexing.ANY, new io.rwsplit.internal.stats.QueryShapes(1), java.util.List.of());

    @Test
    void returnsTheClassifiersAnswerAndRemembersIt() {
        String sql = "/* rwsplit:primary */ select p1_0.id from person p1_0 where p1_0.id=?";
        ClassificationCache.Entry first = cache.classify(sql);
        assertEquals(SqlClassifier.classify(sql), first.kind());
        assertEquals(SqlHint.PRIMARY, first.hint());
        assertSame(first, cache.classify(sql));
        assertSame(first, cache.classify(new String(sql)), "an equal string hits too");
    }

    @Test
    void stringsSharingASlotNeverGetEachOthersAnswer() {
        // "Aa" and "BB" have the same hashCode, so they land in the same slot
        String read = "select 1 from t where c = 'Aa'";
        String write = "delete from t where c = 'Aa'";
        assertEquals(SqlKind.READ, cache.classify(read).kind());
        assertEquals(SqlKind.WRITE, cache.classify(write).kind());
        String readBb = read.replace("Aa", "BB");
        assertEquals(read.hashCode(), readBb.hashCode());
        assertEquals(SqlKind.READ, cache.classify(readBb).kind());
        String writeBb = write.replace("Aa", "BB");
        assertEquals(SqlKind.WRITE, cache.classify(writeBb).kind());
        assertEquals(SqlKind.READ, cache.classify(read).kind());
    }

    @Test
    void malformedHintIsRejectedEveryTime() {
        String sql = "/* rwsplit:primray */ select 1";
        assertThrows(IllegalArgumentException.class, () -> cache.classify(sql));
        assertThrows(IllegalArgumentException.class, () -> cache.classify(sql));
    }
}
