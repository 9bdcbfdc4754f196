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
import org.junit.jupiter.params.provider.ValueSource;

class MariaDbGtidPositionTest {

    private static GtidPosition p(String text) {
        return GtidPosition.parseMariaDb(text);
    }

    @Test
    void ordersBySequenceNumberWithinADomain() {
        assertTrue(p("0-1-42").contains(p("0-1-41")));
        assertTrue(p("0-1-42").contains(p("0-1-42")));
        assertFalse(p("0-1-42").contains(p("0-1-43")));
    }

    @Test
    void comparesSequenceNumbersAsNumbersNotText() {
        assertTrue(p("0-1-10").contains(p("0-1-9")));
        assertFalse(p("0-1-9").contains(p("0-1-10")));
    }

    @Test
    void ignoresServerIdWhenComparing() {
        assertTrue(p("0-2-42").contains(p("0-1-42")));
        assertTrue(p("0-1-43").contains(p("0-7-42")));
        assertFalse(p("0-9-41").contains(p("0-1-42")));
    }

    @Test
    void requiresEveryDomainOfTheOtherPosition() {
        GtidPosition replica = p("0-1-100,1-2-7");
        assertTrue(replica.contains(p("0-1-100,1-2-7")));
        assertTrue(replica.contains(p("1-2-5")));
        assertFalse(replica.contains(p("0-1-100,1-2-8")));
        assertFalse(replica.contains(p("0-1-100,2-3-1")), "domain 2 was never applied on the replica");
    }

    @Test
    void extraDomainsOnThisSideDoNotMatter() {
        assertTrue(p("0-1-5,1-1-5,2-1-5").contains(p("1-1-5")));
    }

    @Test
    void domainOrderInTheTextDoesNotMatter() {
        assertEquals(p("0-1-42,1-2-7"), p("1-2-7,0-1-42"));
        assertTrue(p("5-1-1,1-2-7,3-1-9").contains(p("3-1-9,1-2-7")));
    }

    @Test
    void emptyPositionContainsOnlyEmptyPositions() {
        assertTrue(p("").contains(p("")));
        assertTrue(p("0-1-1").contains(p("")));
        assertFalse(p("").contains(p("0-1-1")));
        assertTrue(p("  \n").isEmpty());
        assertEquals("", p("").toString());
    }

    @Test
    void mergeKeepsTheHigherSequencePerDomainAndUnitesDomains() {
        assertEquals(p("0-1-50,1-2-7,2-3-1"), p("0-1-50,1-2-3").merge(p("0-1-40,1-2-7,2-3-1")));
    }

    @Test
    void mergeTakesTheServerIdOfTheWinningGtid() {
        assertEquals("0-2-43", p("0-1-42").merge(p("0-2-43")).toString());
        assertEquals("0-1-42", p("0-1-42").merge(p("0-2-42")).toString(), "on a tie the receiver's GTID is kept");
    }

    @Test
    void mergeWithAContainedPositionReturnsTheReceiver() {
        GtidPosition big = p("0-1-50,1-2-7");
        assertSame(big, big.merge(p("0-1-10")));
        assertSame(big, p("0-1-10").merge(big));
        assertSame(big, big.merge(p("")));
    }

    @Test
    void mergeResultContainsBothSides() {
        GtidPosition a = p("0-1-5,3-1-9");
        GtidPosition b = p("0-2-7,1-1-1");
        GtidPosition merged = a.merge(b);
        assertTrue(merged.contains(a));
        assertTrue(merged.contains(b));
        assertFalse(a.contains(merged));
    }

    @Test
    void printsCanonicalTextOrderedByDomain() {
        assertEquals("0-1-42,1-2-7,10-3-1", p(" 10-3-1 , 1-2-7,\n0-1-42 ").toString());
    }

    @Test
    void handlesTheFullUnsignedRanges() {
        GtidPosition max = p("4294967295-4294967295-18446744073709551615");
        assertEquals("4294967295-4294967295-18446744073709551615", max.toString());
        assertTrue(max.contains(p("4294967295-1-18446744073709551614")));
        assertFalse(p("4294967295-1-9223372036854775807").contains(max), "sequence numbers compare unsigned");
        assertTrue(p("4294967295-1-1,0-1-1").contains(p("0-1-1")), "domains compare unsigned");
    }

    @Test
    void equalsAndHashCodeAreByValue() {
        assertEquals(p("0-1-42,1-2-7"), p("1-2-7 , 0-1-42"));
        assertEquals(p("0-1-42,1-2-7").hashCode(), p("1-2-7,0-1-42").hashCode());
        assertNotEquals(p("0-1-42"), p("0-2-42"));
        assertNotEquals(p("0-1-42"), p("0-1-43"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0-1              | expected '-' after server id but the text ended",
        "0-1-             | sequence number is missing",
        "0               | expected '-' after domain id",
        "a-1-2            | domain id 'a' at offset 0 is not a number",
        "0-1-x            | sequence number 'x' at offset 4 is not a number",
        "0-1-2,           | domain id is missing",
        "0-1-2,,1-1-1     | domain id ',' at offset 6 is not a number",
        "0-1-2;1-1-1      | expected ',' between GTIDs but found ';1'",
        "0-1-2 1-1-1      | expected ',' between GTIDs but found '1'",
        "0-1-2,0-3-4      | domain 0 appears more than once",
        "-1-1-2           | domain id '-' at offset 0 is not a number",
        "4294967296-1-1   | domain id '4294967296' at offset 0 is out of range",
        "0-4294967296-1   | server id '4294967296' at offset 2 is out of range",
        "0-1-18446744073709551616 | sequence number '18446744073709551616' at offset 4 is out of range",
        "0-1-+5           | sequence number '+5' at offset 4 is not a number",
    })
    void rejectsMalformedTextNamingIt(String text, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p(text));
        assertTrue(e.getMessage().startsWith("Malformed MariaDB GTID position '" + text + "'"), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"3E11FA47-71CA-11E1-9E33-C80AA9429562", "0-1-2-3", "0-1-٣"})
    void rejectsNonMariaDbText(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p(text));
        assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    }

    @Test
    void truncatesHugeTextInTheMessage() {
        String huge = "0-1-1,".repeat(100) + "x";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p(huge));
        assertTrue(e.getMessage().contains("'" + huge.substring(0, 60) + "...' (601 chars)"), e.getMessage());
    }

    /**
     * The new primary (server 2) replicated the old one's (server 1) writes up to 0-1-100, then wrote 0-2-101 to
     * 0-2-105 itself. 0-2-103 is its own; 0-1-101, the old primary's, no replica had, though the new primary's own
     * numbering passed it.
     */
    @Test
    void aNewPrimaryHoldsItsOwnWritesPastWhatItReplicatedButNotTheOldPrimarysLostOnes() {
        GtidPosition survived = p("0-1-100");
        GtidPosition newPrimary = p("0-2-105");
        assertTrue(newPrimary.holdsAfterPromotion(survived, p("0-2-103")), "its own");
        assertTrue(newPrimary.holdsAfterPromotion(survived, p("0-1-99")), "replicated");
        assertFalse(newPrimary.holdsAfterPromotion(survived, p("0-1-101")), "the old primary's, lost");
        assertFalse(newPrimary.holdsAfterPromotion(survived, p("0-2-106")), "not yet written there");
        assertTrue(p("0-2-105,1-1-7").holdsAfterPromotion(p("0-1-100,1-1-7"), p("0-2-104,1-1-7")), "domain by domain");
        assertFalse(p("0-2-105,1-1-7").holdsAfterPromotion(p("0-1-100,1-1-7"), p("0-2-104,1-1-8")));
        assertFalse(p("0-2-105").holdsAfterPromotion(p("0-1-100"), p("0-2-104,1-2-1")), "a domain it never wrote");
    }

    @Test
    void theFurthestWriteOfTheFirstWriterIsKeptWhereAnotherServerWritesLater() {
        assertEquals(p("0-1-101"), p("0-1-101").mergeSameWriter(p("0-2-102")), "the old primary's write stays");
        assertEquals(p("0-1-102"), p("0-1-101").mergeSameWriter(p("0-1-102")), "the same server: merged");
        assertEquals(p("0-1-101,1-2-5"), p("0-1-101,1-2-4").mergeSameWriter(p("0-2-102,1-2-5")), "domain by domain");
        assertEquals(p("0-1-101,1-2-4"), p("0-1-101").mergeSameWriter(p("1-2-4")), "a new domain is added");
    }
}
