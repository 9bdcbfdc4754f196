package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.SettingsTable;

class HibernateSettingsTest {

    private final RwSplitProperties properties = new RwSplitProperties();
    private final RoutingContext context = new RoutingContext();

    private static RwSplitProperties.Replica replica(String name, String url) {
        RwSplitProperties.Replica r = new RwSplitProperties.Replica();
        r.setName(name);
        r.setUrl(url);
        return r;
    }

    @Test
    void handsTheReplicaListAndTypedValuesToTheCoreKeys() {
        RwSplitProperties.Replica second = replica(null, "jdbc:mariadb://db2/app");
        second.setUsername("reader");
        second.setWeight(3);
        properties.setReplicas(List.of(replica("east", "jdbc:mariadb://db1/app"), second));
        properties.setLoadBalancer(RwSplitProperties.LoadBalancer.LEAST_IN_FLIGHT);
        properties.getHealth().setMaxLag(Duration.ofMillis(500));
        properties.setConsistency("bounded_staleness:PT1S");
        Map<String, Object> hibernate = new HashMap<>();
        new HibernateSettings(properties, context, "app", "secret").customize(hibernate);
        assertEquals("east=jdbc:mariadb://db1/app replica2=jdbc:mariadb://db2/app", hibernate.get(RwSplitSettings.REPLICAS));
        assertEquals("app", hibernate.get("hibernate.rwsplit.replica.east.user"), "a replica defaults to the primary's user");
        assertEquals("secret", hibernate.get("hibernate.rwsplit.replica.east.password"));
        assertEquals("reader", hibernate.get("hibernate.rwsplit.replica.replica2.user"));
        assertEquals(null, hibernate.get("hibernate.rwsplit.replica.replica2.password"), "another user never gets the primary's password");
        assertEquals(3, hibernate.get("hibernate.rwsplit.replica.replica2.weight"));
        assertEquals("least_in_flight", hibernate.get(RwSplitSettings.LOAD_BALANCER));
        assertEquals(Duration.ofMillis(500), hibernate.get(RwSplitSettings.MAX_LAG), "a bound value reaches the core as it is");
        assertEquals("bounded_staleness:PT1S", hibernate.get(RwSplitSettings.CONSISTENCY));
        assertSame(context, hibernate.get(RwSplitSettings.INTENT_SOURCE));
        assertSame(context, hibernate.get(RwSplitSettings.SCOPE_RESOLVER));
    }

    @Test
    void leavesUnsetValuesToTheCoreDefaults() {
        Map<String, Object> hibernate = new HashMap<>();
        new HibernateSettings(properties, context, null, null).customize(hibernate);
        assertEquals(Map.of(RwSplitSettings.INTENT_SOURCE, context, RwSplitSettings.SCOPE_RESOLVER, context), hibernate);
    }

    @Test
    void keepsSpringJpaPropertiesAndRefusesTheSameKeyWithTwoValues() {
        Map<String, Object> hibernate = new HashMap<>(Map.of(RwSplitSettings.MAX_LAG, "2s", RwSplitSettings.FALLBACK, "fail"));
        properties.getHealth().setMaxLag(Duration.ofSeconds(1));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new HibernateSettings(properties, context, null, null).customize(hibernate));
        assertTrue(e.getMessage().contains("spring.rwsplit.health.max-lag") && e.getMessage().contains(RwSplitSettings.MAX_LAG),
                e.getMessage());
        properties.getHealth().setMaxLag(null);
        new HibernateSettings(properties, context, null, null).customize(hibernate);
        assertEquals("fail", hibernate.get(RwSplitSettings.FALLBACK));
    }

    @Test
    void theSameValueWrittenTwoWaysIsNotAConflict() {
        Map<String, Object> hibernate = new HashMap<>(Map.of(RwSplitSettings.MAX_LAG, "500ms"));
        properties.getHealth().setMaxLag(Duration.ofMillis(500));
        new HibernateSettings(properties, context, null, null).customize(hibernate);
        assertEquals(Duration.ofMillis(500), hibernate.get(RwSplitSettings.MAX_LAG));
    }

    @Test
    void theTypedChoicesAreTheCoresChoices() {
        assertEquals(SettingsTable.LOAD_BALANCER.choices(), names(RwSplitProperties.LoadBalancer.class));
        assertEquals(SettingsTable.FALLBACK.choices(), names(RwSplitProperties.Fallback.class));
        assertEquals(new java.util.TreeSet<>(SettingsTable.LAG_PROBE.choices()),
                new java.util.TreeSet<>(names(RwSplitProperties.LagProbe.class)));
        assertEquals(SettingsTable.READ_YOUR_WRITES.choices(), names(RwSplitProperties.ReadYourWritesMode.class));
    }

    @Test
    void typedValuesAreValidatedByTheCoresRules() {
        properties.getHealth().setProbeInterval(Duration.ZERO);
        properties.getPrimary().setFailureThreshold(-1);
        org.springframework.validation.BeanPropertyBindingResult errors =
                new org.springframework.validation.BeanPropertyBindingResult(properties, "spring.rwsplit");
        properties.validate(properties, errors);
        assertEquals(List.of("health.probeInterval", "primary.failureThreshold"),
                errors.getFieldErrors().stream().map(e -> e.getField()).sorted().toList());
        assertTrue(errors.getFieldError("health.probeInterval").getDefaultMessage().contains("positive duration"),
                errors.toString());
    }

    private static <E extends Enum<E>> List<String> names(Class<E> type) {
        return java.util.Arrays.stream(type.getEnumConstants()).map(c -> c.name().toLowerCase(java.util.Locale.ROOT)).toList();
    }

    @Test
    void anApplicationsOwnScopeResolverIsKept() {
        Map<String, Object> hibernate = new HashMap<>(Map.of(RwSplitSettings.SCOPE_RESOLVER, "com.example.Mine"));
        new HibernateSettings(properties, context, null, null).customize(hibernate);
        assertEquals("com.example.Mine", hibernate.get(RwSplitSettings.SCOPE_RESOLVER));
    }
}
