package io.rwsplit.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.InvalidSettingException;

class ShapeRuleTest {

    private static Map<String, Object> unit(String... keysAndValues) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("hibernate.rwsplit.replicas", "jdbc:h2:mem:r1");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            settings.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return settings;
    }

    private static List<ShapeRule> rules(String... keysAndValues) {
        return RwSplitConfig.from(unit(keysAndValues)).rules();
    }

    @Test
    void rulesAreReadInTheOrderOfTheirNames() {
        List<ShapeRule> rules = rules(
                "hibernate.rwsplit.rule.b-home.match", "prefix:SELECT  r1_0.id from recommendation",
                "hibernate.rwsplit.rule.b-home.route", "consistency:bounded_staleness:5s",
                "hibernate.rwsplit.rule.a-product.match", "id:0123456789ab",
                "hibernate.rwsplit.rule.a-product.route", "primary");
        assertEquals(List.of("a-product", "b-home"), rules.stream().map(ShapeRule::name).toList());
        assertTrue(rules.get(0).toPrimary());
        assertEquals(Consistency.parse("bounded_staleness:5s"), rules.get(1).consistency());
        assertTrue(rules.get(1).matches("x", "select r1_0.id from recommendation r1_0 where ...", null),
                "a prefix ignores case and runs of spaces");
        assertFalse(rules.get(0).matches("0123456789ac", "select 1", null));
        assertEquals(List.of(), rules());
    }

    @Test
    void aTierRuleNamesTheTierAndNoLevel() {
        ShapeRule rule = rules("hibernate.rwsplit.rule.t.match", "prefix:select", "hibernate.rwsplit.rule.t.route",
                "Tier: 1").get(0);
        assertEquals(1, rule.tier());
        assertNull(rule.consistency());
        assertFalse(rule.toPrimary(), "a tier is no move to the primary");
    }

    @Test
    void aSourceRuleMatchesTheOpeningCommentExactly() {
        ShapeRule rule = rules("hibernate.rwsplit.rule.q.match", "source: select p from Person p",
                "hibernate.rwsplit.rule.q.route", "primary").get(0);
        assertTrue(rule.matches("x", "select ...", "select p from Person p"));
        assertFalse(rule.matches("x", "select ...", "select p from Person p where p.id = :id"));
        assertFalse(rule.matches("x", "select ...", null));
    }

    @Test
    void aQueryRuleMatchesNothingUntilItsNamedQueryIsResolvedToItsComment() {
        ShapeRule rule = rules("hibernate.rwsplit.rule.q.match", "query: Person.byName",
                "hibernate.rwsplit.rule.q.route", "primary").get(0);
        assertEquals(ShapeRule.Match.QUERY, rule.match());
        assertEquals("Person.byName", rule.pattern());
        assertEquals("hibernate.rwsplit.rule.q.match", rule.matchKey());
        assertFalse(rule.matches("x", "select ...", "Person.byName"), "a name is not a comment");
        ShapeRule resolved = rule.asSource("select p from Person p where p.name = :name");
        assertTrue(resolved.toPrimary());
        assertTrue(resolved.matches("x", "select ...", "select p from Person p where p.name = :name"));
        assertFalse(resolved.matches("x", "select ...", null));
    }

    @Test
    void aMalformedRuleFailsStartupNamingItsKeyAndValue() {
        Map<String, String> bad = Map.of(
                "hibernate.rwsplit.rule.x.match", "shape:123",
                "hibernate.rwsplit.rule.y.match", "id:XYZ",
                "hibernate.rwsplit.rule.z.match", "prefix:",
                "hibernate.rwsplit.rule.w.match", "query:");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            String name = e.getKey().split("\\.")[3];
            InvalidSettingException ex = assertThrows(InvalidSettingException.class, () -> rules(e.getKey(), e.getValue(),
                    "hibernate.rwsplit.rule." + name + ".route", "primary"), e.getKey());
            assertEquals(e.getKey(), ex.key());
            assertTrue(ex.getMessage().contains(e.getValue()), ex.getMessage());
        }
        InvalidSettingException route = assertThrows(InvalidSettingException.class, () -> rules(
                "hibernate.rwsplit.rule.r.match", "prefix:select", "hibernate.rwsplit.rule.r.route", "replica"));
        assertEquals("hibernate.rwsplit.rule.r.route", route.key());
        InvalidSettingException level = assertThrows(InvalidSettingException.class, () -> rules(
                "hibernate.rwsplit.rule.r.match", "prefix:select", "hibernate.rwsplit.rule.r.route", "consistency:soon"));
        assertTrue(level.getMessage().contains("soon"), level.getMessage());
        for (String tier : List.of("tier:0", "tier:two", "tier:", "tier:-1")) {
            InvalidSettingException t = assertThrows(InvalidSettingException.class, () -> rules(
                    "hibernate.rwsplit.rule.r.match", "prefix:select", "hibernate.rwsplit.rule.r.route", tier), tier);
            assertEquals("hibernate.rwsplit.rule.r.route", t.key());
            assertTrue(t.getMessage().contains(tier) && t.getMessage().contains("tier:<n>"), t.getMessage());
        }
        InvalidSettingException missing = assertThrows(InvalidSettingException.class, () -> rules(
                "hibernate.rwsplit.rule.r.match", "prefix:select"));
        assertEquals("hibernate.rwsplit.rule.r.route", missing.key());
        InvalidSettingException unknown = assertThrows(InvalidSettingException.class, () -> Settings.check(unit(
                "hibernate.rwsplit.rule.r.target", "primary")));
        assertEquals("hibernate.rwsplit.rule.r.target", unknown.key());
        assertNull(SettingsTable.row("hibernate.rwsplit.rule.r.target"));
    }
}
