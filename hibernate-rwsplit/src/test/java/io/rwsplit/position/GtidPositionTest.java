package io.rwsplit.position;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GtidPositionTest {

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

    @Test
    void detectsMySqlByTheColon() {
        GtidPosition p = GtidPosition.parse(UUID + ":1-5");
        assertInstanceOf(MySqlGtidSet.class, p);
        assertEquals(GtidPosition.parseMySql(UUID + ":1-5"), p);
    }

    @Test
    void detectsMariaDbWithoutAColon() {
        GtidPosition p = GtidPosition.parse("0-1-42,1-2-7");
        assertInstanceOf(MariaDbGtidPosition.class, p);
        assertEquals(GtidPosition.parseMariaDb("0-1-42,1-2-7"), p);
    }

    @Test
    void parsesEmptyTextAsTheEmptyMariaDbPosition() {
        assertInstanceOf(MariaDbGtidPosition.class, GtidPosition.parse(""));
        assertTrue(GtidPosition.parse(" \n").isEmpty());
    }

    @Test
    void reportsMalformedTextInTheDetectedFlavour() {
        IllegalArgumentException mysql = assertThrows(IllegalArgumentException.class,
                () -> GtidPosition.parse(UUID + ":0"));
        assertTrue(mysql.getMessage().startsWith("Malformed MySQL GTID set '" + UUID + ":0'"), mysql.getMessage());
        IllegalArgumentException maria = assertThrows(IllegalArgumentException.class,
                () -> GtidPosition.parse("0-1-x"));
        assertTrue(maria.getMessage().startsWith("Malformed MariaDB GTID position '0-1-x'"), maria.getMessage());
    }

    @Test
    void rejectsContainsBetweenFlavoursNamingBothPositions() {
        GtidPosition maria = GtidPosition.parseMariaDb("0-1-42");
        GtidPosition mysql = GtidPosition.parseMySql(UUID + ":1-5");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> maria.contains(mysql));
        assertEquals("Cannot compare MariaDB GTID position '0-1-42' and MySQL GTID set '" + UUID
                + ":1-5': positions of different databases are not comparable", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> mysql.contains(maria));
    }

    @Test
    void rejectsMergeBetweenFlavours() {
        GtidPosition maria = GtidPosition.parseMariaDb("0-1-42");
        GtidPosition mysql = GtidPosition.parseMySql(UUID + ":1-5");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> maria.merge(mysql));
        assertTrue(e.getMessage().startsWith("Cannot merge MariaDB GTID position '0-1-42' and MySQL GTID set"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> mysql.merge(maria));
    }

    @Test
    void emptyPositionsAreCompatibleWithBothFlavours() {
        GtidPosition emptyMaria = GtidPosition.parse("");
        GtidPosition emptyMySql = GtidPosition.parseMySql("");
        GtidPosition maria = GtidPosition.parseMariaDb("0-1-42");
        GtidPosition mysql = GtidPosition.parseMySql(UUID + ":1-5");

        assertTrue(mysql.contains(emptyMaria));
        assertTrue(maria.contains(emptyMySql));
        assertFalse(emptyMaria.contains(mysql));
        assertFalse(emptyMySql.contains(maria));

        assertSame(mysql, mysql.merge(emptyMaria));
        assertSame(mysql, emptyMaria.merge(mysql));
        assertSame(maria, emptyMySql.merge(maria));
        assertSame(maria, maria.merge(emptyMySql));
    }

    @Test
    void rejectsNullText() {
        assertThrows(NullPointerException.class, () -> GtidPosition.parse(null));
        assertThrows(NullPointerException.class, () -> GtidPosition.parseMariaDb(null));
        assertThrows(NullPointerException.class, () -> GtidPosition.parseMySql(null));
    }
}
