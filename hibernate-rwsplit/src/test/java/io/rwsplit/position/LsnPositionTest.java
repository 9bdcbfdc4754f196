package io.rwsplit.position;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LsnPositionTest {

    @Test
    void parsesBothHexHalvesIntoOneUnsignedNumber() {
        assertEquals(0x16_B374D848L, LsnPosition.parse("16/B374D848").lsn());
        assertEquals(0xFFFF_FFFF_FFFF_FFFFL, LsnPosition.parse("FFFFFFFF/FFFFFFFF").lsn());
        assertEquals(0x3_0000_0000L + 0xA0L, LsnPosition.parse(" 3/a0\n").lsn());
    }

    @Test
    void anInsertPositionJustPastAPageHeaderIsTheBoundaryAStandbyReaches() {
        assertEquals(LsnPosition.parse("0/2000"), LsnPosition.parse("0/2018").asReplayPosition(8192));
        assertEquals(LsnPosition.parse("1/FFFFE000"), LsnPosition.parse("1/FFFFE018").asReplayPosition(8192));
        assertEquals(LsnPosition.parse("0/2020"), LsnPosition.parse("0/2020").asReplayPosition(8192), "a record ends there");
        assertEquals(LsnPosition.parse("0/2017"), LsnPosition.parse("0/2017").asReplayPosition(8192));
        assertEquals(LsnPosition.parse("0/2018"), LsnPosition.parse("0/2018").asReplayPosition(16384),
                "mid-page with 16 kB WAL pages");
        assertEquals(LsnPosition.parse("0/4000"), LsnPosition.parse("0/4018").asReplayPosition(16384));
    }

    @Test
    void comparesNumericallyNeverAsText() {
        GtidPosition earlier = GtidPosition.parsePostgres("0/9FFFFFF");
        GtidPosition later = GtidPosition.parsePostgres("0/A000000");
        assertTrue(later.contains(earlier));
        assertFalse(earlier.contains(later));
        assertTrue(GtidPosition.parsePostgres("10/0").contains(GtidPosition.parsePostgres("9/FFFFFFFF")));
        assertFalse(GtidPosition.parsePostgres("9/FFFFFFFF").contains(GtidPosition.parsePostgres("10/0")));
    }

    @Test
    void comparesTheUpperHalfUnsigned() {
        GtidPosition high = GtidPosition.parsePostgres("80000000/0");
        GtidPosition low = GtidPosition.parsePostgres("7FFFFFFF/FFFFFFFF");
        assertTrue(high.contains(low));
        assertFalse(low.contains(high));
        assertSame(high, high.merge(low));
        assertSame(high, low.merge(high));
    }

    @Test
    void containsItselfAndMergesToTheLaterPosition() {
        GtidPosition p = GtidPosition.parsePostgres("1/20");
        assertTrue(p.contains(GtidPosition.parsePostgres("1/20")));
        assertEquals(GtidPosition.parsePostgres("1/21"), p.merge(GtidPosition.parsePostgres("1/21")));
    }

    @Test
    void printsAsTheServerAcceptsIt() {
        assertEquals("16/B374D848", LsnPosition.parse("16/b374d848").toString());
        assertEquals("0/0", LsnPosition.of(0).toString());
        assertEquals("FFFFFFFF/FFFFFFFF", LsnPosition.of(-1L).toString());
    }

    @Test
    void zeroIsTheEmptyPositionCompatibleWithEveryFlavour() {
        GtidPosition empty = LsnPosition.parse("0/0");
        GtidPosition maria = GtidPosition.parseMariaDb("0-1-5");
        assertTrue(empty.isEmpty());
        assertTrue(maria.contains(empty));
        assertFalse(empty.contains(maria));
        assertSame(maria, empty.merge(maria));
        assertTrue(LsnPosition.parse("0/1").contains(GtidPosition.parseMariaDb("")));
    }

    @Test
    void refusesToCompareWithAnotherDatabasesPosition() {
        GtidPosition lsn = GtidPosition.parsePostgres("0/3000060");
        GtidPosition maria = GtidPosition.parseMariaDb("0-1-42");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> lsn.contains(maria));
        assertEquals("Cannot compare PostgreSQL LSN '0/3000060' and MariaDB GTID position '0-1-42': positions of"
                + " different databases are not comparable", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> maria.contains(lsn));
        assertThrows(IllegalArgumentException.class, () -> lsn.merge(maria));
    }

    @Test
    void isDetectedByTheSlash() {
        assertInstanceOf(LsnPosition.class, GtidPosition.parse("0/3000060"));
    }

    @Test
    void measuresBytesBetweenPositions() {
        assertEquals(0x100, LsnPosition.parse("1/100").bytesAfter(LsnPosition.parse("1/0")));
        assertEquals(0, LsnPosition.parse("1/0").bytesAfter(LsnPosition.parse("1/100")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "16", "16/", "/16", "1G/0", "0/0/0", "123456789/0", "0/123456789", "0 / 1", "-1/0"})
    void rejectsMalformedTextNamingIt(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LsnPosition.parse(text));
        assertTrue(e.getMessage().startsWith("Malformed PostgreSQL LSN '" + text + "'"), e.getMessage());
    }

    @Test
    void travelsInAConsistencyToken() {
        ConsistencyToken token = ConsistencyToken.of(GtidPosition.parsePostgres("16/B374D848"), 1_700_000_000_000_000L);
        ConsistencyToken back = ConsistencyToken.decode(token.encode());
        assertEquals(token, back);
        assertInstanceOf(LsnPosition.class, back.positionOrNull());
    }

    @Test
    void tokensMergeToTheLaterLsn() {
        ConsistencyToken a = ConsistencyToken.of(GtidPosition.parsePostgres("0/5000"), 10);
        ConsistencyToken b = ConsistencyToken.of(GtidPosition.parsePostgres("0/4000"), 20);
        assertEquals(ConsistencyToken.of(GtidPosition.parsePostgres("0/5000"), 20), Tokens.merge(a, b));
    }

    private static LsnPosition at(long lsn, long timeline) {
        return LsnPosition.of(lsn).onTimeline(timeline);
    }

    @Test
    void aTimelineSaysWhoWroteButNeitherOrdersNorPrintsNorParts() {
        assertEquals(2, at(0x5000, 2).timeline());
        assertEquals(0, LsnPosition.of(0x5000).timeline(), "unknown");
        assertEquals(LsnPosition.of(0x5000), at(0x5000, 2), "equal at the same byte offset");
        assertEquals("0/5000", at(0x5000, 2).toString(), "not in its text, nor in a token's");
        assertTrue(at(0x5000, 1).contains(at(0x4000, 2)));
        assertEquals(2, ((LsnPosition) at(0x4000, 1).merge(at(0x5000, 2))).timeline(), "the furthest, with its own");
        assertEquals(3, at(0x5000, 3).next().timeline());
        assertEquals(3, at(0x2018, 3).asReplayPosition(8192).timeline());
        assertSame(LsnPosition.EMPTY, LsnPosition.EMPTY.onTimeline(2));
        assertThrows(IllegalArgumentException.class, () -> LsnPosition.of(1).onTimeline(0));
        assertThrows(IllegalArgumentException.class, () -> LsnPosition.of(1).onTimeline(1L << 32));
    }

    /**
     * The new primary replicated the old one's WAL up to 0/7000 (its switch point), then wrote on timeline 2 up to
     * 0/8000. A write at 0/7500 on timeline 2 is its own; one at 0/7100 on timeline 1 is the old primary's, which no
     * standby had, though the new primary's own writes passed its number.
     */
    @Test
    void aNewPrimaryHoldsItsOwnWritesPastItsSwitchPointButNotTheOldPrimarysLostOnes() {
        LsnPosition survived = LsnPosition.of(0x7000);
        LsnPosition newPrimary = at(0x8000, 2);
        assertTrue(newPrimary.holdsAfterPromotion(survived, at(0x7500, 2)), "its own");
        assertTrue(newPrimary.holdsAfterPromotion(survived, at(0x6000, 1)), "replicated before the promotion");
        assertFalse(newPrimary.holdsAfterPromotion(survived, at(0x7100, 1)), "the old primary's, lost");
        assertTrue(newPrimary.holdsAfterPromotion(survived, at(0x9000, 2)),
                "its timeline's, past the position it reported: a commit's insert position may run ahead of it");
        assertFalse(newPrimary.holdsAfterPromotion(survived, LsnPosition.of(0x7500)), "a writer unknown: as before");
        assertFalse(LsnPosition.of(0x8000).holdsAfterPromotion(survived, at(0x7500, 2)), "the new primary's unknown");
    }

    @Test
    void theFurthestWriteOfTheFirstWriterIsKeptWhenAnotherTimelineWritesLater() {
        assertEquals(at(0x7100, 1), at(0x7100, 1).mergeSameWriter(at(0x7500, 2)), "the old primary's write stays");
        assertEquals(1, ((LsnPosition) at(0x7100, 1).mergeSameWriter(at(0x7500, 2))).timeline());
        assertEquals(LsnPosition.of(0x7500), at(0x7100, 1).mergeSameWriter(at(0x7500, 1)), "the same writer: merged");
        assertEquals(LsnPosition.of(0x7500), at(0x7100, 1).mergeSameWriter(LsnPosition.of(0x7500)), "unknown: merged");
    }
}
