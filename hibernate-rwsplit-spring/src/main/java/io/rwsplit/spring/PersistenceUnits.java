package io.rwsplit.spring;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import javax.sql.DataSource;

import jakarta.persistence.EntityManagerFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.orm.jpa.EntityManagerFactoryInfo;

import io.rwsplit.RwSplit;

/**
 * The application's persistence units on which hibernate-rwsplit is active, by name: the entity manager
 * factory bean name without its {@code entityManagerFactory} suffix (as Spring Boot names Hibernate's meters),
 * {@code entityManagerFactory} for the default one. Looked up lazily, when a health check, endpoint or meter
 * binder asks.
 */
final class PersistenceUnits {

    private static final String SUFFIX = "entitymanagerfactory";

    private final ListableBeanFactory beans;

    PersistenceUnits(ListableBeanFactory beans) {
        this.beans = beans;
    }

    /** Units by name, in bean definition order; only those with hibernate-rwsplit active. */
    Map<String, EntityManagerFactory> active() {
        Map<String, EntityManagerFactory> units = new LinkedHashMap<>();
        beans.getBeansOfType(EntityManagerFactory.class, false, false).forEach((bean, factory) -> {
            if (isActive(factory)) {
                units.put(name(bean), factory);
            }
        });
        return units;
    }

    static boolean isActive(EntityManagerFactory factory) {
        try {
            RwSplit.statistics(factory);
            return true;
        }
        catch (IllegalStateException | jakarta.persistence.PersistenceException e) {
            return false;
        }
    }

    /** The primary's DataSource of a Spring-built factory, or {@code null}. */
    static DataSource dataSource(EntityManagerFactory factory) {
        return factory instanceof EntityManagerFactoryInfo info ? info.getDataSource() : null;
    }

    static String name(String beanName) {
        String lower = beanName.toLowerCase(Locale.ROOT);
        if (lower.length() > SUFFIX.length() && lower.endsWith(SUFFIX)) {
            return beanName.substring(0, beanName.length() - SUFFIX.length());
        }
        return beanName;
    }
}
