package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/**
 * The tests run on the Spring Boot and Hibernate ORM the build names: Spring Boot 4.1 and the project's Hibernate in
 * the default build, Spring Boot 4.0 and the Hibernate it manages in compat/spring-boot-4.0. Both versions are
 * passed by the build (outside Maven there is nothing to compare with).
 */
class ClassPathVersionsTest {

    @Test
    void runsOnTheSpringBootTheBuildNames() {
        String expected = System.getProperty("expected.spring-boot.version");
        assumeTrue(expected != null, "run by Maven");
        assertEquals(expected, SpringBootVersion.getVersion());
    }

    @Test
    void runsOnTheHibernateTheBuildNames() {
        String expected = System.getProperty("expected.hibernate.version");
        assumeTrue(expected != null, "run by Maven");
        assertEquals(expected, org.hibernate.Version.getVersionString());
        HibernateVersionGuard.check(org.hibernate.Version.getVersionString());
    }
}
