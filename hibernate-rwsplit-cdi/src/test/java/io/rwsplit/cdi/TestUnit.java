package io.rwsplit.cdi;

import java.util.HashMap;
import java.util.Map;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnitTransactionType;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.hibernate.jpa.HibernatePersistenceConfiguration;

import io.agroal.narayana.NarayanaTransactionIntegration;

/**
 * What an application's persistence producer looks like: Agroal pools from {@code rwsplit.cdi.*} keys
 * (the primary enlisted in Narayana's JTA transactions), a JTA unit, and the properties of
 * {@link RwSplitPersistence}.
 */
@ApplicationScoped
public class TestUnit {

    @Inject
    RwSplitPersistence rwsplit;

    @Inject
    TransactionManager transactionManager;

    @Inject
    TransactionSynchronizationRegistry transactionRegistry;

    TestDatabases databases;
    RwSplitDataSources pools;
    private EntityManagerFactory emf;

    @PostConstruct
    void start() {
        databases = new TestDatabases();
        Map<String, String> config = new HashMap<>();
        config.put("rwsplit.cdi.primary.url", databases.primaryUrl);
        config.put("rwsplit.cdi.primary.user", "sa");
        config.put("rwsplit.cdi.replicas", "r1");
        config.put("rwsplit.cdi.replica.r1.url", databases.replicaUrl);
        config.put("rwsplit.cdi.metrics", "true");
        config.put("rwsplit.cdi.leak_timeout", "PT10M");
        pools = RwSplitDataSources.build(config, new NarayanaTransactionIntegration(transactionManager, transactionRegistry));

        HibernatePersistenceConfiguration unit = new HibernatePersistenceConfiguration("cdi-test")
                .managedClass(Person.class)
                // read-your-writes by time, with a window no slow test machine outlives
                .property("hibernate.rwsplit.read_your_writes", "time")
                .property("hibernate.rwsplit.read_your_writes_window", "PT5M")
                .transactionType(PersistenceUnitTransactionType.JTA)
                .property("hibernate.transaction.jta.platform",
                        "org.hibernate.engine.transaction.jta.platform.internal.JBossStandAloneJtaPlatform");
        pools.properties().forEach(unit::property);
        rwsplit.properties().forEach(unit::property);
        emf = unit.createEntityManagerFactory();
    }

    /** The two databases (a method: callers hold a client proxy, whose fields are empty). */
    TestDatabases databases() {
        return databases;
    }

    RwSplitDataSources pools() {
        return pools;
    }

    @Produces
    EntityManagerFactory entityManagerFactory() {
        return emf;
    }

    @PreDestroy
    void stop() {
        emf.close();
        pools.close();
        databases.close();
    }
}
