package io.rwsplit.spring;

import java.util.ArrayList;
import java.util.List;

import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;
import io.rwsplit.UsePrimary;
import io.rwsplit.internal.route.RoutingAnnotations;

/**
 * Puts a {@link RoutingInterceptor} in front of every bean whose class, proxy interfaces or methods carry
 * {@code @ReadReplica}, {@code @UsePrimary} or {@code @ReadConsistency}. A bean that is already a proxy (a Spring
 * Data repository, whose annotations sit on its interface; a {@code @Transactional} bean) gets the interceptor
 * as its first advice, so the intent is set before the transaction interceptor obtains a connection; other
 * beans are proxied. Contradictory annotations fail when the bean is created.
 */
final class RoutingAnnotationPostProcessor implements BeanPostProcessor, BeanClassLoaderAware, Ordered {

    private final RoutingContext context;
    private ClassLoader classLoader = ClassUtils.getDefaultClassLoader();

    RoutingAnnotationPostProcessor(RoutingContext context) {
        this.context = context;
    }

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    @Override
    public int getOrder() {
        // after the auto-proxy creators (highest precedence), so that their proxies exist to be added to
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof AopInfrastructureBean) {
            return bean;
        }
        List<Class<?>> types = types(bean);
        if (!RoutingAnnotations.annotated(types)) {
            return bean;
        }
        RoutingAnnotations.validate(types);
        DefaultPointcutAdvisor advisor = new DefaultPointcutAdvisor(new RoutingInterceptor(context, types));
        if (bean instanceof Advised advised && !advised.isFrozen()) {
            advised.addAdvisor(0, advisor);
            return bean;
        }
        ProxyFactory factory = new ProxyFactory(bean);
        factory.setProxyTargetClass(!(bean instanceof Advised));
        factory.addAdvisor(advisor);
        return factory.getProxy(classLoader);
    }

    /** The bean's user class and the interfaces its proxy implements (Spring Data repositories). */
    private static List<Class<?>> types(Object bean) {
        List<Class<?>> types = new ArrayList<>();
        if (bean instanceof Advised advised) {
            for (Class<?> i : advised.getProxiedInterfaces()) {
                if (!i.getName().startsWith("org.springframework.")) {
                    types.add(i);
                }
            }
        }
        types.add(ClassUtils.getUserClass(AopUtils.getTargetClass(bean)));
        return types;
    }
}
