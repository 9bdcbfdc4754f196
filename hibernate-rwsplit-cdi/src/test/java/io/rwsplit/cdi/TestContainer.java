package io.rwsplit.cdi;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.persistence.EntityManagerFactory;

import org.jboss.weld.junit5.WeldInitiator;

import com.arjuna.ats.jta.cdi.TransactionExtension;

/** Weld SE with Narayana (its CDI extension), hibernate-rwsplit-cdi (its extension) and {@link TestUnit}. */
final class TestContainer {

    private TestContainer() {
    }

    static WeldInitiator with(Class<?>... beans) {
        // without discovery Weld SE loads no extension from META-INF/services: add them as an application would get them
        return WeldInitiator.from(WeldInitiator.createWeld()
                        .addExtension(new TransactionExtension())
                        .addExtension(new RwSplitExtension())
                        .addBeanClass(TestUnit.class)
                        .addBeanClasses(beans))
                // the generated Jakarta Data repositories inject their factory with @PersistenceUnit
                .setPersistenceUnitFactory(injectionPoint -> CDI.current().select(EntityManagerFactory.class).get())
                .build();
    }
}
