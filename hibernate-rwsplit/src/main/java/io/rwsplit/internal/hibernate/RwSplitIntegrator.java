package io.rwsplit.internal.hibernate;

import org.hibernate.boot.Metadata;
import org.hibernate.boot.spi.BootstrapContext;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.integrator.spi.Integrator;

/**
 * Found through {@code META-INF/services}: once a session factory is built, resolves its rules by named query
 * ({@link NamedQueryRules}). Does nothing for a factory whose connections we do not route.
 */
public final class RwSplitIntegrator implements Integrator {

    @Override
    public void integrate(Metadata metadata, BootstrapContext bootstrapContext, SessionFactoryImplementor sessionFactory) {
        sessionFactory.addObserver(new NamedQueryRules());
    }
}
