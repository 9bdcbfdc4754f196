package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.Setting;
import io.rwsplit.internal.config.SettingsTable;

/**
 * The {@code spring.rwsplit.*} properties Spring binds at build time are checked against the core's settings table:
 * each one handed to Hibernate names a row and has that row's kind (a duration, an integer, a boolean, an enum
 * whose constants are the row's choices, text); every row has a property or a reason here why it has none; every
 * property of the metadata is a core key's or one of the module's own.
 */
class SpringPropertiesAgainstRowsTest {

    /** Core rows without a typed property, each for a reason (they keep working under spring.jpa.properties). */
    private static final Map<String, String> NOT_TYPED = Map.of(
            RwSplitSettings.TENANTS, "multi-tenancy builds its own primaries, not from spring.datasource",
            RwSplitSettings.SCOPE_RESOLVER, "the module sets its RoutingContext",
            RwSplitSettings.INTENT_SOURCE, "the module sets its RoutingContext",
            RwSplitSettings.TRANSACTION_STATUS, "a JTA registry object",
            RwSplitSettings.CLOCK, "an object, for tests",
            SettingsTable.RULE_MATCH.key(), "rules by query shape are named by the operator: spring.jpa.properties",
            SettingsTable.RULE_ROUTE.key(), "rules by query shape are named by the operator: spring.jpa.properties");

    /** Properties of the module itself, or those that stand for several core keys. */
    private static final Set<String> OWN = Set.of("spring.rwsplit.enabled", "spring.rwsplit.replicas",
            "spring.rwsplit.pool");

    @Test
    void everyTypedPropertyHasTheKindOfItsRow() throws IOException, ClassNotFoundException {
        Map<String, String> types = SpringPropertiesReferenceTest.metadataTypes();
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, String> e : HibernateSettings.PROPERTY_OF_KEY.entrySet()) {
            if (OWN.contains(e.getValue())) {
                continue; // spring.rwsplit.replicas: a list of replicas, several core keys
            }
            Setting row = SettingsTable.row(e.getKey());
            String type = types.get(e.getValue());
            if (row == null || row.isTemplate()) {
                wrong.add(e.getValue() + " -> " + e.getKey() + ": no row of the settings table");
            }
            else if (type == null) {
                wrong.add(e.getValue() + " -> " + e.getKey() + ": not in the configuration metadata");
            }
            else {
                String problem = kindProblem(row, type);
                if (problem != null) {
                    wrong.add(e.getValue() + " -> " + e.getKey() + ": " + problem);
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void everyRowHasAPropertyOrAReason() {
        List<String> missing = new ArrayList<>();
        for (Setting row : SettingsTable.ALL) {
            String key = row.key();
            boolean covered = HibernateSettings.PROPERTY_OF_KEY.containsKey(key) || NOT_TYPED.containsKey(key)
                    || key.startsWith(RwSplitSettings.REPLICA_PREFIX)  // spring.rwsplit.replicas[n].*
                    || key.startsWith(RwSplitSettings.POOL_PREFIX)     // spring.rwsplit.pool.*
                    || key.startsWith(RwSplitSettings.TENANT_PREFIX);  // with tenants
            if (!covered) {
                missing.add(key);
            }
        }
        assertEquals(List.of(), missing, "core settings with neither a spring.rwsplit property nor a reason");
        for (String key : NOT_TYPED.keySet()) {
            assertEquals(null, HibernateSettings.PROPERTY_OF_KEY.get(key), key + " has a property: remove its reason");
        }
    }

    @Test
    void everyPropertyOfTheMetadataIsACoreKeysOrTheModulesOwn() throws IOException {
        Set<String> unexplained = new TreeSet<>(SpringPropertiesReferenceTest.metadataTypes().keySet());
        unexplained.removeAll(HibernateSettings.PROPERTY_OF_KEY.values());
        unexplained.removeAll(OWN);
        unexplained.removeIf(p -> p.startsWith("spring.rwsplit.web."));
        assertEquals(Set.of(), unexplained, "spring.rwsplit properties that reach no core key");
    }

    /** Why a property of {@code type} cannot carry the values of {@code row}, or null when it can. */
    private static String kindProblem(Setting row, String type) throws ClassNotFoundException {
        switch (row.kind()) {
            case DURATION -> {
                return type.equals("java.time.Duration") ? null : "a duration, bound as " + type;
            }
            case INTEGER -> {
                return type.equals("java.lang.Integer") ? null : "an integer, bound as " + type;
            }
            case BOOLEAN -> {
                return type.equals("java.lang.Boolean") ? null : "a boolean, bound as " + type;
            }
            case TEXT, LIST, CONSISTENCY -> {
                return type.equals("java.lang.String") ? null : "text, bound as " + type;
            }
            default -> {
                Class<?> bound = Class.forName(type); // a binary name: Outer$Inner
                if (!bound.isEnum()) {
                    return "bound as " + type + ", which is not an enum";
                }
                Set<String> constants = new TreeSet<>();
                for (Object c : bound.getEnumConstants()) {
                    String name = ((Enum<?>) c).name().toLowerCase(Locale.ROOT);
                    constants.add(name);
                    try {
                        row.parse(row.key(), name);
                    }
                    catch (RuntimeException e) {
                        return "the constant " + name + " is refused: " + e.getMessage();
                    }
                }
                if (row.kind() == Setting.Kind.CHOICE && !constants.equals(new TreeSet<>(row.choices()))) {
                    return "enum " + constants + ", the row's choices " + new TreeSet<>(row.choices());
                }
                return null;
            }
        }
    }
}
