package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class SqlFingerprintTest {

    private static String text(String sql) {
        return SqlFingerprint.of(sql).text();
    }

    @Test
    void literalsBecomePlaceholdersAndParametersStay() {
        assertEquals("select * from t where a = ? and b = ? and c = ? and d = ?",
                text("select * from t where a = 'x''y' and b = 42 and c = 1.5e3 and d = ?"));
    }

    @Test
    void identifiersWithDigitsAndQuotedIdentifiersAreKept() {
        assertEquals("select p1_0.id, \"Col 2\", `x9` from person p1_0 where p1_0.id = ?",
                text("select p1_0.id, \"Col 2\", `x9` from person p1_0 where p1_0.id = 7"));
    }

    @Test
    void inListsOfAnyLengthFoldToOne() {
        assertEquals("select * from t where id in (?) and x IN (?)",
                text("select * from t where id in (1, 2, 3) and x IN (?,?)"));
        assertEquals(text("select * from t where id in (1)"), text("select * from t where id in (4, 5)"));
        assertEquals("select * from t where id in (select id from u)", text("select * from t where id in (select id from u)"));
    }

    @Test
    void whitespaceAndCommentsDoNotMakeAnotherShape() {
        assertEquals("select a from t where b = ?", text("select  a\n  from t -- a comment\n where /* x */ b = 1"));
    }

    @Test
    void anOpeningCommentIsTheShapesSource() {
        SqlFingerprint f = SqlFingerprint.of("/* select p from Person p where p.name = :n */ select p1_0.id from person p1_0 where p1_0.name=?");
        assertEquals("select p from Person p where p.name = :n", f.source());
        assertEquals("select p1_0.id from person p1_0 where p1_0.name=?", f.text());
        assertNull(SqlFingerprint.of("select 1").source());
    }

    @Test
    void postgresDollarQuotesAreLiterals() {
        assertEquals("select ?, ? from t", text("select $$a 'b'$$, $tag$x$tag$ from t"));
    }

    @Test
    void theIdIsShortStableAndTellsShapesApart() {
        String id = SqlFingerprint.of("select * from t where a = 1").id();
        assertEquals(12, id.length());
        assertEquals(id, SqlFingerprint.of("select * from t  where a = 2").id());
        assertNotEquals(id, SqlFingerprint.of("select * from u where a = 1").id());
        assertEquals("5f3c2d1b0e8a".length(), id.length());
    }
}
