package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Statements that MySQL's and PostgreSQL's lexers (and their session settings: {@code standard_conforming_strings},
 * {@code NO_BACKSLASH_ESCAPES}) read differently. The classifier reads both ways and keeps the reading that sends the
 * statement to the primary: a statement that is a locking read, a write or a primary function under one reading is
 * never a replica read; one that is a plain read under both still goes to a replica.
 */
class LexingReadingsTest {

    static Stream<Arguments> statements() {
        return Stream.of(
                // PostgreSQL: # is an operator, not a comment
                Arguments.of("SELECT d #>> '{a}' FROM t WHERE id = 1 FOR UPDATE", "primary"),
                Arguments.of("select d #> '{a,b}' from t where id = 1 for share", "primary"),
                Arguments.of("select d #- '{a}' from t where id = 1 for no key update", "primary"),
                Arguments.of("select d #> '{a,b}', d @> '{\"a\": 1}' from t where id = 1", "replica"),
                // standard strings take a backslash literally; E'' strings escape
                Arguments.of("SELECT 'C:\\' AS path, id FROM t FOR UPDATE", "primary"),
                Arguments.of("select E'it\\'s' as s from t for update", "primary"),
                Arguments.of("select E'it\\'s' as s from t", "primary"),  // MySQL without backslash escapes: unterminated
                Arguments.of("select 'it''s' as s from t", "replica"),
                // dollar quotes quote anything; $1 is a parameter
                Arguments.of("select $fn$ it's $fn$ as s from t for update", "primary"),
                Arguments.of("select $$ a ' b $$ as s, nextval('s') from t", "primary"),
                Arguments.of("select id from t where name = $1", "replica"),
                Arguments.of("select $$ plain $$ as s from t", "replica"),
                // comments: PostgreSQL's -- needs no space and block comments nest
                Arguments.of("select 1 --comment\nfor update", "primary"),
                Arguments.of("select /* a /* nested */ still a comment */ 1 from t for update", "primary"),
                Arguments.of("select /* a /* nested */ for update */ 1 from t", "primary"),
                // MySQL: # comments, backslash escapes
                Arguments.of("select * from t where id = 1 # a comment", "replica"),
                Arguments.of("select 'a\\'b' as s from t for update", "primary"),
                Arguments.of("select \"pg_advisory_lock\"(42)", "primary"),
                Arguments.of("select \"a\\\" from t", "primary"));  // unterminated under one reading: not a plain read
    }

    @ParameterizedTest
    @MethodSource("statements")
    void aStatementReadsAsAReplicaReadOnlyWhenEveryReadingSaysSo(String sql, String expected) {
        assertEquals(expected, SqlClassifier.classify(sql).primaryOnly() ? "primary" : "replica", sql);
    }

    /** With the database known, its own rules decide: what only the other database's lexer would hide stays a read. */
    static Stream<Arguments> byDatabase() {
        return Stream.of(
                Arguments.of(Lexing.MYSQL, "select * from t where id = 1 # for update", "replica"),
                Arguments.of(Lexing.POSTGRESQL, "select * from t where id = 1 # for update", "primary"),
                Arguments.of(Lexing.MYSQL, "select d #>> '{a}' from t where id = 1 for update", "replica"),
                Arguments.of(Lexing.POSTGRESQL, "select d #>> '{a}' from t where id = 1 for update", "primary"),
                Arguments.of(Lexing.POSTGRESQL, "select d #> '{a}' from t where id = 1", "replica"),
                Arguments.of(Lexing.POSTGRESQL, "select E'it\\'s' as s from t", "replica"),
                Arguments.of(Lexing.MYSQL, "select $$ for update $$ as s from t", "primary"),
                Arguments.of(Lexing.POSTGRESQL, "select $$ for update $$ as s from t", "replica"),
                Arguments.of(Lexing.POSTGRESQL, "select 1 --for update", "replica"),
                Arguments.of(Lexing.MYSQL, "select 1 --for update", "primary"),
                Arguments.of(Lexing.MYSQL, "select 'it''s' as s, \"a\" from t", "replica"),
                // a backslash: NO_BACKSLASH_ESCAPES (MySQL) and standard_conforming_strings (PostgreSQL) read it twice
                Arguments.of(Lexing.MYSQL, "select 'a\\' as s from t -- ' for update", "primary"),
                Arguments.of(Lexing.POSTGRESQL, "select 'a\\' as s from t -- ' for update", "primary"),
                Arguments.of(Lexing.MYSQL, "select 'a\\b' as s from t", "replica"),
                Arguments.of(Lexing.POSTGRESQL, "select E'a\\\\' as s from t", "replica"));
    }

    @ParameterizedTest
    @MethodSource("byDatabase")
    void theDatabasesOwnReadingsDecide(Lexing lexing, String sql, String expected) {
        assertEquals(expected, SqlClassifier.classify(sql, lexing).primaryOnly() ? "primary" : "replica",
                lexing + ": " + sql);
    }
}
