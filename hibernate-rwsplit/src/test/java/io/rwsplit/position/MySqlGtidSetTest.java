package io.rwsplit.position;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MySqlGtidSetTest {

    private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String B = "4fd9bd8c-1111-4e1e-8a5e-0242ac120002";

    private static GtidPosition s(String text) {
        return GtidPosition.parseMySql(text);
    }

    @Test
    void containsEveryTransactionInsideItsIntervals() {
        GtidPosition executed = s(A + ":1-5:7-9");
        assertTrue(executed.contains(s(A + ":1")));
        assertTrue(executed.contains(s(A + ":3-5")));
        assertTrue(executed.contains(s(A + ":7-9:2-4")));
    }

    @Test
    void doesNotContainTransactionsInAGap() {
        GtidPosition executed = s(A + ":1-5:7-9");
        assertFalse(executed.contains(s(A + ":6")));
        assertFalse(executed.contains(s(A + ":5-7")), "an interval spanning the gap is not contained");
        assertFalse(executed.contains(s(A + ":1-9")));
        assertFalse(executed.contains(s(A + ":10")));
    }

    @Test
    void comparesTransactionNumbersAsNumbersNotText() {
        assertTrue(s(A + ":1-10").contains(s(A + ":9")));
        assertFalse(s(A + ":1-9").contains(s(A + ":10")));
    }

    @Test
    void requiresEverySourceOfTheOtherSet() {
        GtidPosition executed = s(A + ":1-100," + B + ":1-3");
        assertTrue(executed.contains(s(B + ":2," + A + ":50")));
        assertFalse(executed.contains(s(A + ":50," + B + ":4")));
        assertFalse(s(A + ":1-100").contains(s(B + ":1")));
    }

    @Test
    void treatsUuidsCaseInsensitively() {
        assertEquals(s(A.toUpperCase() + ":1-5"), s(A + ":1-5"));
        assertTrue(s(A.toUpperCase() + ":1-5").contains(s(A + ":2")));
        assertEquals(A + ":1-5", s(A.toUpperCase() + ":1-5").toString());
    }

    @Test
    void parsesGtidExecutedWithNewlinesAndWhitespace() {
        GtidPosition executed = s("  " + A.toUpperCase() + ":1-5:7-9,\n" + B + ":1-3\n");
        assertEquals(A + ":1-5:7-9," + B + ":1-3", executed.toString());
        assertEquals(s(A + " : 1 - 5 : 7-9 ,\r\n\t" + B + ":1-3"), executed);
    }

    @Test
    void coalescesOverlappingAndAdjacentIntervals() {
        assertEquals(A + ":1-9", s(A + ":6-9:1-5").toString());
        assertEquals(A + ":1-9:11", s(A + ":1-3:2-7:8:9:11").toString());
        assertEquals(s(A + ":1-3," + A + ":4-5"), s(A + ":1-5"), "a repeated UUID is united");
    }

    @Test
    void ordersSourcesCanonically() {
        assertEquals(A + ":1," + B + ":2", s(B + ":2," + A + ":1").toString());
        assertEquals(s(B + ":2," + A + ":1").hashCode(), s(A + ":1," + B + ":2").hashCode());
        String high = "ffffffff-ffff-ffff-ffff-ffffffffffff";
        assertEquals(A + ":1," + high + ":1", s(high + ":1," + A + ":1").toString(), "UUIDs order unsigned");
    }

    @Test
    void keepsTaggedTransactionsApartFromUntaggedOnes() {
        GtidPosition executed = s(A + ":1-5:Batch:1-3");
        assertEquals(A + ":1-5:batch:1-3", executed.toString());
        assertTrue(executed.contains(s(A + ":batch:2")));
        assertTrue(executed.contains(s(A + ":BATCH:3")), "tags are case-insensitive");
        assertFalse(executed.contains(s(A + ":batch:4")));
        assertFalse(executed.contains(s(A + ":other:1")));
        assertFalse(s(A + ":batch:1-5").contains(s(A + ":1")));
    }

    @Test
    void parsesATagRightAfterTheUuid() {
        GtidPosition tagged = s(A + ":_t1:1-3:5:x:1");
        assertEquals(A + ":_t1:1-3:5:x:1", tagged.toString());
        assertTrue(tagged.contains(s(A + ":_t1:5")));
        assertFalse(tagged.contains(s(A + ":_t1:4")));
    }

    @Test
    void emptySetContainsOnlyEmptySets() {
        assertTrue(s("").contains(s(" \n ")));
        assertTrue(s(A + ":1").contains(s("")));
        assertFalse(s("").contains(s(A + ":1")));
        assertEquals("", s("").toString());
        assertTrue(s("").isEmpty());
    }

    @Test
    void mergeIsTheUnion() {
        GtidPosition merged = s(A + ":1-5:10," + B + ":1").merge(s(A + ":6-8:20:tag:1,"
                + "00000000-0000-0000-0000-000000000001:7"));
        assertEquals("00000000-0000-0000-0000-000000000001:7," + A + ":1-8:10:20:tag:1," + B + ":1",
                merged.toString());
    }

    @Test
    void mergeWithAContainedSetReturnsTheReceiver() {
        GtidPosition big = s(A + ":1-100," + B + ":1-3");
        assertSame(big, big.merge(s(A + ":7")));
        assertSame(big, s(B + ":2").merge(big));
        assertSame(big, big.merge(s("")));
    }

    @Test
    void mergeResultContainsBothSides() {
        GtidPosition a = s(A + ":1-5:7");
        GtidPosition b = s(A + ":6," + B + ":1");
        GtidPosition merged = a.merge(b);
        assertTrue(merged.contains(a));
        assertTrue(merged.contains(b));
        assertTrue(merged.contains(s(A + ":1-7")), "filling the gap coalesces the intervals");
        assertFalse(a.contains(merged));
    }

    @Test
    void handlesTheLargestTransactionNumber() {
        GtidPosition max = s(A + ":9223372036854775806-9223372036854775807");
        assertEquals(A + ":9223372036854775806-9223372036854775807", max.toString());
        assertEquals(s(A + ":1-9223372036854775807"), s(A + ":1-9223372036854775806:9223372036854775807"));
    }

    @Test
    void equalsIsByValue() {
        assertEquals(s(A + ":1-3:5"), s(A + ":5:1-3"));
        assertNotEquals(s(A + ":1-3"), s(A + ":1-4"));
        assertNotEquals(s(A + ":1-3"), s(A + ":t:1-3"));
        assertNotEquals(s(A + ":1-3"), s(B + ":1-3"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        A + "                    | expected ':' after source UUID but the text ended",
        A + ":                   | transaction number is missing at the end",
        A + ":0                  | interval '0' at offset 37 starts at 0",
        A + ":0-3                | interval '0-3' at offset 37 starts at 0",
        A + ":5-3                | interval '5-3' at offset 37 ends before it starts",
        A + ":1-                 | transaction number is missing at the end",
        A + ":1,                 | source UUID '' at offset 39 is not a UUID",
        A + ":1:                 | transaction number is missing at the end",
        A + ":x                  | expected ':' after tag but the text ended",
        A + ":x:                 | transaction number is missing at the end",
        A + ":1:x:y              | transaction number 'y' at offset 41 is not a number",
        A + ":1-9223372036854775808 | transaction number '9223372036854775808' at offset 39 is out of range",
        A + ":1;2                | expected ',' or ':' but found ';2'",
        A + ":a23456789012345678901234567890123:1 | tag 'a23456789012345678901234567890123' at offset 37 is longer than 32",
        "3e11fa47-71ca-11e1-9e33-c80aa942956:1 | source UUID '3e11fa47-71ca-11e1-9e33-c80aa942956' at offset 0 is not a UUID",
        "3e11fa4771ca11e19e33c80aa9429562:1    | source UUID '3e11fa4771ca11e19e33c80aa9429562' at offset 0 is not a UUID",
        "3g11fa47-71ca-11e1-9e33-c80aa9429562:1 | source UUID '3g11fa47-71ca-11e1-9e33-c80aa9429562' at offset 0 is not a UUID",
        "3e11fa47-71ca-11e1-9e33-c80aa94295621:1 | expected ':' after source UUID but found '1'",
        "0-1-42:1                              | source UUID '0-1-42' at offset 0 is not a UUID",
    })
    void rejectsMalformedTextNamingIt(String text, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s(text));
        assertTrue(e.getMessage().startsWith("Malformed MySQL GTID set " + GtidText.quote(text)), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
