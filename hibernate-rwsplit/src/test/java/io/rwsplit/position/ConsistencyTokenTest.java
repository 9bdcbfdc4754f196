package io.rwsplit.position;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConsistencyTokenTest {

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final long MICROS = 1_712_345_678_901_234L;

    private static String v1(String plain) {
        return "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void roundTripsAMariaDbPosition() {
        ConsistencyToken token = ConsistencyToken.of(GtidPosition.parseMariaDb("1-2-7,0-1-42"), MICROS);
        ConsistencyToken decoded = ConsistencyToken.decode(token.encode());
        assertEquals(token, decoded);
        assertEquals("0-1-42,1-2-7", decoded.position().orElseThrow().toString());
        assertEquals(MICROS, decoded.commitTimeMicros());
    }

    @Test
    void roundTripsAMySqlSetWithTagsAndGaps() {
        GtidPosition set = GtidPosition.parseMySql(UUID + ":1-5:7-9:tag:3,\nffffffff-ffff-ffff-ffff-ffffffffffff:1");
        ConsistencyToken token = ConsistencyToken.of(set, 0);
        ConsistencyToken decoded = ConsistencyToken.decode(token.encode());
        assertEquals(token, decoded);
        assertInstanceOf(MySqlGtidSet.class, decoded.position().orElseThrow());
    }

    @Test
    void roundTripsATokenWithoutPosition() {
        ConsistencyToken token = ConsistencyToken.withoutPosition(Long.MAX_VALUE);
        ConsistencyToken decoded = ConsistencyToken.decode(token.encode());
        assertEquals(token, decoded);
        assertEquals(Optional.empty(), decoded.position());
    }

    @Test
    void keepsTheFlavourOfAnEmptyPosition() {
        ConsistencyToken mysql = ConsistencyToken.of(GtidPosition.parseMySql(""), MICROS);
        ConsistencyToken maria = ConsistencyToken.of(GtidPosition.parseMariaDb(""), MICROS);
        assertEquals(mysql, ConsistencyToken.decode(mysql.encode()));
        assertEquals(maria, ConsistencyToken.decode(maria.encode()));
        assertNotEquals(mysql, maria);
        assertNotEquals(ConsistencyToken.withoutPosition(MICROS), maria);
    }

    @Test
    void encodesToUrlAndCookieSafeText() {
        String encoded = ConsistencyToken.of(GtidPosition.parseMySql(UUID + ":1-5:7-9"), MICROS).encode();
        assertTrue(encoded.startsWith("v1."), encoded);
        assertTrue(encoded.matches("[A-Za-z0-9_.-]+"), encoded);
    }

    @Test
    void decodesTheDocumentedFormat() {
        assertEquals(ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-42"), 17), ConsistencyToken.decode(v1("17;M0-1-42")));
        assertEquals(ConsistencyToken.withoutPosition(17), ConsistencyToken.decode(v1("17")));
    }

    @Test
    void rejectsANegativeCommitTime() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConsistencyToken.withoutPosition(-1));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-1"), -5));
    }

    @Test
    void rejectsANullPosition() {
        assertThrows(NullPointerException.class, () -> ConsistencyToken.of(null, 1));
    }

    @Test
    void rejectsAWrongPrefix() {
        String token = "v2." + v1("17").substring(3);
        assertMalformed(token, "does not start with 'v1.'");
        assertMalformed("", "does not start with 'v1.'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1.MTc*", "v1.M", "v1.MTc=x", "v1. MTc"})
    void rejectsBadBase64(String token) {
        assertMalformed(token, "not base64url");
    }

    @Test
    void rejectsBadCommitTimes() {
        assertMalformed(v1("-17;M0-1-1"), "commit time is negative");
        assertMalformed(v1("-17"), "commit time is negative");
        assertMalformed(v1(""), "commit time is not a number");
        assertMalformed(v1("+17"), "commit time is not a number");
        assertMalformed(v1("1x"), "commit time is not a number");
        assertMalformed(v1(";M0-1-1"), "commit time is not a number");
        assertMalformed(v1("9223372036854775808"), "commit time is out of range");
        assertMalformed(v1("12345678901234567890"), "commit time is not a number");
    }

    @Test
    void rejectsBadPositions() {
        assertMalformed(v1("17;"), "position has no flavour");
        assertMalformed(v1("17;X0-1-1"), "unknown position flavour 'X'");
        assertMalformed(v1("17;M0-1-x"), "position is invalid: Malformed MariaDB GTID position '0-1-x'");
        assertMalformed(v1("17;Y" + UUID + ":6-5"), "position is invalid: Malformed MySQL GTID set");
        assertMalformed(v1("17;M" + UUID + ":1"), "position is invalid: Malformed MariaDB GTID position");
    }

    @Test
    void aPostgresPositionKeepsItsTimelineWhenKnown() {
        ConsistencyToken token = ConsistencyToken.of(LsnPosition.parse("16/B374D848").onTimeline(3), MICROS);
        LsnPosition decoded = (LsnPosition) ConsistencyToken.decode(token.encode()).positionOrNull();
        assertEquals(3, decoded.timeline(), "which server wrote it: a failover tells its own writes from lost ones by it");
        assertEquals(LsnPosition.parse("16/B374D848"), decoded);
        assertEquals(ConsistencyToken.decode(v1(MICROS + ";P16/B374D848@3")), token);
        assertEquals(0, ((LsnPosition) ConsistencyToken.decode(v1("17;P0/5000")).positionOrNull()).timeline(),
                "a token without one (an older release's) is read as before: timeline unknown");
        assertMalformed(v1("17;P0/5000@"), "its timeline '' is not a number");
        assertMalformed(v1("17;P0/5000@x"), "its timeline 'x' is not a number");
        assertMalformed(v1("17;P0/5000@0"), "a PostgreSQL timeline is between 1 and 4294967295, not 0");
        assertMalformed(v1("17;P0/5000@4294967296"), "not 4294967296");
    }

    @Test
    void truncatesALongTokenInTheMessage() {
        String token = "v1." + "A".repeat(500) + "*";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConsistencyToken.decode(token));
        assertTrue(e.getMessage().startsWith("Malformed consistency token '" + token.substring(0, 60) + "...' (504 chars)"),
                e.getMessage());
        assertTrue(e.getMessage().length() < 200, e.getMessage());
    }

    @Test
    void equalsIsByValue() {
        GtidPosition p = GtidPosition.parseMariaDb("0-1-42");
        assertEquals(ConsistencyToken.of(p, 1), ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-42"), 1));
        assertEquals(ConsistencyToken.of(p, 1).hashCode(), ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-42"), 1).hashCode());
        assertNotEquals(ConsistencyToken.of(p, 1), ConsistencyToken.of(p, 2));
        assertNotEquals(ConsistencyToken.of(p, 1), ConsistencyToken.of(GtidPosition.parseMariaDb("0-1-43"), 1));
    }

    private static void assertMalformed(String token, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConsistencyToken.decode(token));
        assertTrue(e.getMessage().startsWith("Malformed consistency token " + GtidText.quote(token) + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
