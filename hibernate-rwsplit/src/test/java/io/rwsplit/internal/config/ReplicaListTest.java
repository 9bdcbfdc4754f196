package io.rwsplit.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.ConfigurationException;

class ReplicaListTest {

    private static final String KEY = "hibernate.rwsplit.replicas";
    private static final String A = "jdbc:mariadb://a:3306/db";
    private static final String B = "jdbc:mariadb://b:3306/db";

    private static List<String> entries(Map<String, Object> settings) {
        return ReplicaList.entries(new Settings(settings), KEY);
    }

    @Test
    void splitsOnWhitespaceCommasSemicolonsAndNewLines() {
        for (String value : List.of(A + " " + B, A + "," + B, A + ", " + B, A + ";" + B, A + "\n" + B,
                "\n\t" + A + " ,\r\n " + B + " ;\n", A + ";\n" + B)) {
            assertEquals(List.of(A, B), ReplicaList.split(value), value);
        }
    }

    @Test
    void keepsCommasOfAMultiHostUrlAndSemicolonsOfOptions() {
        String multiHost = "jdbc:mysql://h1,h2:3307,h3/db?failOverReadOnly=false";
        String h2 = "jdbc:h2:mem:r1;DB_CLOSE_DELAY=-1;MODE=MySQL";
        assertEquals(List.of(multiHost, h2, B), ReplicaList.split(multiHost + "," + h2 + ";" + B));
        assertEquals(List.of(multiHost), ReplicaList.split(multiHost));
    }

    @Test
    void splitsBeforeNamedEntriesAndBetweenBareNames() {
        assertEquals(List.of("east=" + A + ";x=1", "west=" + B), ReplicaList.split("east=" + A + ";x=1,west=" + B));
        assertEquals(List.of("r1", "r2", "r3"), ReplicaList.split("r1,r2; r3"));
    }

    @Test
    void readsIndexedListsInIndexOrder() {
        Map<String, Object> brackets = new HashMap<>();
        brackets.put(KEY + "[1]", B);
        brackets.put(KEY + "[0]", A);
        assertEquals(List.of(A, B), entries(brackets));
        Map<String, Object> dots = new HashMap<>();
        dots.put(KEY + ".10", B);
        dots.put(KEY + ".2", A);
        assertEquals(List.of(A, B), entries(dots));
        assertTrue(ReplicaList.isPresent(dots, KEY));
        assertTrue(ReplicaList.isIndexedKey(KEY, KEY + "[3]"));
        assertFalse(ReplicaList.isIndexedKey(KEY, KEY + "[x]"));
        assertFalse(ReplicaList.isIndexedKey(KEY, "hibernate.rwsplit.replica.r1.url"));
    }

    @Test
    void refusesBothFormsNamingTheKeys() {
        Map<String, Object> both = new HashMap<>();
        both.put(KEY, A);
        both.put(KEY + "[0]", B);
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> entries(both));
        assertTrue(e.getMessage().contains(KEY + "[0]") && e.getMessage().contains(A), e.getMessage());
    }

    @Test
    void refusesTheSameIndexTwice() {
        Map<String, Object> twice = new HashMap<>();
        twice.put(KEY + "[0]", A);
        twice.put(KEY + ".0", B);
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> entries(twice));
        assertTrue(e.getMessage().contains(KEY + "[0]") && e.getMessage().contains(KEY + ".0"), e.getMessage());
    }
}
