package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlTextStatementsTest {

    @Test
    void splitsAtSemicolonsOutsideLiteralsQuotedNamesAndComments() {
        String sql = "SET a = ';' ; INSERT INTO \"t;1\" VALUES (1) /* ; */;\n -- x;\n COMMIT";
        assertEquals(List.of("SET a = ';' ", "INSERT INTO \"t;1\" VALUES (1) /* ; */", "COMMIT"),
                SqlText.statements(sql, 0));
    }

    @Test
    void aTrailingSemicolonAndSpaceMakeNoEmptyStatement() {
        assertEquals(List.of("BEGIN", "COMMIT"), SqlText.statements("BEGIN; COMMIT;  \n", 0));
    }

    @Test
    void aLiteralThatNeverClosesRunsToTheEnd() {
        assertEquals(List.of("SELECT 1", "SELECT 'open; more"), SqlText.statements("SELECT 1; SELECT 'open; more", 0));
    }

    @Test
    void startsAtTheGivenIndex() {
        assertEquals(List.of("SELECT 2"), SqlText.statements("  SELECT 2", 2));
    }
}
