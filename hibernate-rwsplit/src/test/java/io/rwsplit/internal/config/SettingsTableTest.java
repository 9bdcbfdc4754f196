package io.rwsplit.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rwsplit.Consistency;
import io.rwsplit.internal.balance.LoadBalancers;
import io.rwsplit.internal.consistency.ConsistencyScope;
import io.rwsplit.internal.consistency.ReadYourWritesMode;
import io.rwsplit.InvalidSettingException;

class SettingsTableTest {

    private static InvalidSettingException refused(String key, Object value) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(key, value);
        List<InvalidSettingException> problems = Settings.problems(settings);
        assertEquals(1, problems.size(), key + "=" + value + " should be refused");
        InvalidSettingException e = problems.get(0);
        assertEquals(key, e.key());
        assertTrue(e.getMessage().contains("'" + key + "'") && e.getMessage().contains("'" + value + "'"), e.getMessage());
        return e;
    }

    @Test
    void theChoicesOfTheTableAreTheNamesTheCodeKnows() {
        assertEquals(LoadBalancers.names(), new TreeSet<>(SettingsTable.LOAD_BALANCER.choices()));
        assertEquals(names(Fallback.class), SettingsTable.FALLBACK.choices());
        assertEquals(names(ReadYourWritesMode.class), SettingsTable.READ_YOUR_WRITES.choices());
        assertEquals(names(ConsistencyScope.class), SettingsTable.CONSISTENCY_SCOPE.choices());
        TreeSet<String> probes = new TreeSet<>(io.rwsplit.internal.health.LagProbes.names());
        probes.add("auto");
        assertEquals(probes, new TreeSet<>(SettingsTable.LAG_PROBE.choices()));
    }

    @Test
    void everyDefaultIsAValueItsOwnRowAccepts() {
        for (Setting s : SettingsTable.ALL) {
            if (s.defaultValue() != null && !s.defaultText().startsWith("(")) {
                assertEquals(s.defaultValue(), s.parse(s.key(), s.defaultText()), s.key());
            }
        }
    }

    @Test
    void aBooleanIsTrueOrFalseOnly() {
        assertEquals(true, SettingsTable.REPLICA_CACHE_PUTS.parse("k", "TRUE"));
        assertEquals(false, SettingsTable.REPLICA_CACHE_PUTS.parse("k", false));
        assertTrue(refused("hibernate.rwsplit.replica_cache_puts", "yes").getMessage().contains("true or false"));
        refused("hibernate.rwsplit.replica_cache_puts", "1");
    }

    @ParameterizedTest
    @CsvSource({"hibernate.rwsplit.max_lag, -1s, not negative", "hibernate.rwsplit.probe_interval, 0, positive",
            "hibernate.rwsplit.probe_interval, 500, a number needs a unit",
            "hibernate.rwsplit.consistency_store_ttl, PT0S, positive",
            "hibernate.rwsplit.causal_wait_timeout, -PT0.1S, not negative"})
    void durationsOutOfRangeOrWithoutAUnitAreRefused(String key, String value, String expected) {
        assertTrue(refused(key, value).getMessage().contains(expected));
    }

    @Test
    void everyDurationAcceptsTheSameSyntax() {
        for (Setting s : SettingsTable.ALL) {
            if (s.kind() == Setting.Kind.DURATION) {
                for (String text : List.of("PT0.5S", "250ms", "1.5s", "2m", "1h")) {
                    assertTrue(s.parse(s.key(), text) instanceof Duration, s.key() + "=" + text);
                }
                assertEquals(Duration.ofSeconds(3), s.parse(s.key(), Duration.ofSeconds(3)));
            }
        }
    }

    @Test
    void theSharedDurationTextsAreAcceptedOrRefusedAsListed() {
        for (String text : io.rwsplit.testing.DurationTexts.ACCEPTED) {
            Settings.check(Map.of(io.rwsplit.RwSplitSettings.MAX_LAG, text));
        }
        for (String text : io.rwsplit.testing.DurationTexts.REFUSED) {
            refused(io.rwsplit.RwSplitSettings.MAX_LAG, text);
        }
    }

    @Test
    void integersAndChoicesAreCheckedByTheirRow() {
        refused("hibernate.rwsplit.failure_threshold", "0");
        refused("hibernate.rwsplit.failure_threshold", 1.5);
        refused("hibernate.rwsplit.load_balancer", "fastest");
        assertEquals("least_lag", SettingsTable.LOAD_BALANCER.parse("k", "LEAST_LAG"));
        assertEquals("primary", SettingsTable.FALLBACK.parse("k", Fallback.PRIMARY));
        assertEquals(Consistency.boundedStaleness(Duration.ofMillis(500)),
                SettingsTable.CONSISTENCY.parse("k", "bounded_staleness:500ms"));
        refused("hibernate.rwsplit.consistency", "bounded_staleness:-1s");
    }

    @Test
    void templateKeysFindTheirRowForEveryReplicaAndTenant() {
        assertSame(SettingsTable.REPLICA_WEIGHT, SettingsTable.row("hibernate.rwsplit.replica.east.weight"));
        assertSame(SettingsTable.REPLICA_TIER, SettingsTable.row("hibernate.rwsplit.tenant.acme.replica.east.tier"));
        assertSame(SettingsTable.TENANT_URL, SettingsTable.row("hibernate.rwsplit.tenant.acme.url"));
        assertNull(SettingsTable.row("hibernate.rwsplit.pool.maximumPoolSize"));
        refused("hibernate.rwsplit.tenant.acme.replica.east.weight", "heavy");
    }

    @Test
    void anUnknownKeyIsRefusedNamingIt() {
        InvalidSettingException e = assertThrows(InvalidSettingException.class,
                () -> Settings.check(Map.of("hibernate.rwsplit.max_lagg", "1s")));
        assertEquals("hibernate.rwsplit.max_lagg", e.key());
    }

    @Test
    void unknownOptionsOfAReplicaOrATenantAreRefusedByTheOneCheck() {
        for (String key : List.of("hibernate.rwsplit.replica.east.wieght", "hibernate.rwsplit.replica.east",
                "hibernate.rwsplit.tenant.acme.urll", "hibernate.rwsplit.tenant.acme.replica.east.wieght",
                "hibernate.rwsplit.tenant.acme")) {
            InvalidSettingException e = assertThrows(InvalidSettingException.class,
                    () -> Settings.check(Map.of(key, "2")), key);
            assertEquals(key, e.key());
            assertTrue(e.getMessage().startsWith("hibernate-rwsplit: unknown setting '" + key + "' (value '2')"),
                    e.getMessage());
        }
        Settings.check(Map.of("hibernate.rwsplit.replica.east.weight", "2", "hibernate.rwsplit.tenant.acme.url", "jdbc:h2:mem:a",
                "hibernate.rwsplit.tenant.acme.replica.east.tier", "2", "hibernate.rwsplit.tenant.acme.replicas[0]", "jdbc:h2:mem:b",
                "hibernate.rwsplit.replicas[0]", "jdbc:h2:mem:c", "hibernate.rwsplit.pool.maximumPoolSize", "3"));
    }

    @Test
    void anUnknownKeyThatLooksSecretDoesNotShowItsValue() {
        InvalidSettingException e = assertThrows(InvalidSettingException.class,
                () -> Settings.check(Map.of("hibernate.rwsplit.replica.east.passwordd", "hunter2")));
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    }

    @Test
    void aListOfNamesIsSplitOnWhitespace() {
        assertEquals(List.of("acme", "globex"), Settings.names("  acme \n globex\t"));
        assertEquals(List.of(), Settings.names("  "));
        assertEquals(List.of(), Settings.names(null));
    }

    private static <E extends Enum<E>> List<String> names(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(c -> c.name().toLowerCase(Locale.ROOT)).toList();
    }
}
