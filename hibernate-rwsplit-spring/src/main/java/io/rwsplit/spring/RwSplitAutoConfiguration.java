package io.rwsplit.spring;

import jakarta.persistence.EntityManagerFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.web.filter.OncePerRequestFilter;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.rwsplit.spi.Clock;
import io.rwsplit.UsePrimary;

/**
 * Auto-configuration of hibernate-rwsplit for Spring Boot: active when replicas are configured
 * ({@code spring.rwsplit.replicas} or {@code spring.jpa.properties.hibernate.rwsplit.replicas}/{@code tenants}).
 * Hands {@code spring.rwsplit.*} to Hibernate, applies {@code @ReadReplica}/{@code @UsePrimary}/{@code @ReadConsistency}
 * to beans and Spring Data repositories, gives web requests a consistency scope and cookie, and contributes the
 * {@code rwsplit} health indicator, endpoint and meters when Actuator and Micrometer are present.
 */
@AutoConfiguration(before = HibernateJpaAutoConfiguration.class)
@ConditionalOnClass({EntityManagerFactory.class, HibernatePropertiesCustomizer.class})
@Conditional(ReplicasConfiguredCondition.class)
@EnableConfigurationProperties(RwSplitProperties.class)
public class RwSplitAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static RoutingContext rwSplitRoutingContext() {
        return new RoutingContext();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static RoutingAnnotationPostProcessor rwSplitRoutingAnnotationPostProcessor(RoutingContext rwSplitRoutingContext) {
        return new RoutingAnnotationPostProcessor(rwSplitRoutingContext);
    }

    @Bean
    HibernatePropertiesCustomizer rwSplitHibernateSettings(RwSplitProperties properties, RoutingContext context,
                                                          org.springframework.core.env.Environment environment) {
        HibernateVersionGuard.check(org.hibernate.Version.getVersionString());
        return new HibernateSettings(properties, context, environment.getProperty("spring.datasource.username"),
                environment.getProperty("spring.datasource.password"));
    }

    @Bean
    @ConditionalOnMissingBean
    PersistenceUnits rwSplitPersistenceUnits(ListableBeanFactory beans) {
        return new PersistenceUnits(beans);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(OncePerRequestFilter.class)
    @ConditionalOnBooleanProperty(name = "spring.rwsplit.web.enabled", matchIfMissing = true)
    static class Web {

        /** After Spring Security's filter chain (order -100), so that the principal is known. */
        static final int FILTER_ORDER = -50;

        private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RwSplitAutoConfiguration.class);

        @Bean
        FilterRegistrationBean<ConsistencyFilter> rwSplitConsistencyFilter(RwSplitProperties properties, RoutingContext context) {
            RwSplitProperties.Web web = properties.getWeb();
            io.rwsplit.web.Signing signing;
            if (web.getCookie().getSecret() != null) {
                signing = new io.rwsplit.web.Signing(web.getCookie().getSecret().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            else {
                signing = io.rwsplit.web.Signing.random();
                if (web.getCookie().isEnabled()) {
                    log.info("hibernate-rwsplit: spring.rwsplit.web.cookie.secret is not set; consistency cookies are"
                            + " honoured by this instance only (set the same secret on every instance); a cookie of"
                            + " another instance costs its request a read from the primary");
                }
            }
            io.rwsplit.web.ConsistencyCookie cookies = new io.rwsplit.web.ConsistencyCookie(signing,
                    web.getCookie().getMaxAge(), Clock.SYSTEM);
            FilterRegistrationBean<ConsistencyFilter> registration =
                    new FilterRegistrationBean<>(new ConsistencyFilter(context, web, cookies));
            registration.setName("rwSplitConsistencyFilter");
            registration.setOrder(FILTER_ORDER);
            return registration;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("rwsplit")
    static class HealthContributor {

        @Bean
        @ConditionalOnMissingBean(name = "rwsplitHealthIndicator")
        RwSplitHealthIndicator rwsplitHealthIndicator(PersistenceUnits units) {
            return new RwSplitHealthIndicator(units);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Endpoint.class)
    @ConditionalOnAvailableEndpoint(RwSplitEndpoint.class)
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        RwSplitEndpoint rwSplitEndpoint(PersistenceUnits units) {
            return new RwSplitEndpoint(units);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterBinder.class)
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        RwSplitMeterBinder rwSplitMeterBinder(PersistenceUnits units) {
            return new RwSplitMeterBinder(units);
        }
    }
}
