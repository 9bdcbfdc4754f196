package io.rwsplit.spring;

import java.util.List;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when replicas are configured: {@code spring.rwsplit.replicas}, or the core's
 * {@code hibernate.rwsplit.replicas} / {@code tenants} under {@code spring.jpa.properties} (as one value or as a
 * YAML list), and {@code spring.rwsplit.enabled} is not {@code false}.
 */
final class ReplicasConfiguredCondition extends SpringBootCondition {

    private static final String JPA = "spring.jpa.properties.hibernate.rwsplit.";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Environment env = context.getEnvironment();
        if (!env.getProperty(RwSplitProperties.PREFIX + ".enabled", Boolean.class, true)) {
            return ConditionOutcome.noMatch("spring.rwsplit.enabled is false");
        }
        Binder binder = Binder.get(env);
        if (binder.bind(RwSplitProperties.PREFIX + ".replicas", Bindable.listOf(RwSplitProperties.Replica.class))
                .map(List::isEmpty).map(empty -> !empty).orElse(false)) {
            return ConditionOutcome.match("spring.rwsplit.replicas is set");
        }
        for (String key : List.of("replicas", "tenants")) {
            if (env.containsProperty(JPA + key) || env.containsProperty(JPA + key + "[0]")) {
                return ConditionOutcome.match(JPA + key + " is set");
            }
        }
        return ConditionOutcome.noMatch("no replicas configured (spring.rwsplit.replicas)");
    }
}
