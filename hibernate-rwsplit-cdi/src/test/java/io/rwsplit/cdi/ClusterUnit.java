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
import io.rwsplit.testing.MariaDbCluster;

/**
 * {@link TestUnit} against the replicated MariaDB cluster: Agroal pools for the primary (enlisted in Narayana's
 * JTA transactions) and both replicas, a JTA unit without entities (the tests use native SQL that names the
 * server answering it), and the properties of {@link RwSplitPersistence}.
 */
@ApplicationScoped
public class ClusterUnit {

    @Inject
    MariaDbCluster cluster;

    @Inject
    RwSplitPersistence rwsplit;

    @Inject
    TransactionManager transactionManager;

    @Inject
    TransactionSynchronizationRegistry transactionRegistry;

    private RwSplitDataSources pools;
    private EntityManagerFactory emf;

    @PostConstruct
    void start() {
        Map<String, String> config = new HashMap<>();
        config.put("rwsplit.cdi.primary.url", cluster.jdbcUrl(MariaDbCluster.PRIMARY));
        config.put("rwsplit.cdi.primary.user", cluster.user());
        config.put("rwsplit.cdi.primary.password", cluster.password());
        config.put("rwsplit.cdi.replicas", "r1 r2");
        config.put("rwsplit.cdi.replica.r1.url", cluster.jdbcUrl(MariaDbCluster.replica(1)));
        config.put("rwsplit.cdi.replica.r2.url", cluster.jdbcUrl(MariaDbCluster.replica(2)));
        pools = RwSplitDataSources.build(config, new NarayanaTransactionIntegration(transactionManager, transactionRegistry));

        HibernatePersistenceConfiguration unit = new HibernatePersistenceConfiguration("cdi-cluster")
                .transactionType(PersistenceUnitTransactionType.JTA)
                .property("hibernate.transaction.jta.platform",
                        "org.hibernate.engine.transaction.jta.platform.internal.JBossStandAloneJtaPlatform")
                // delayed replicas stay in rotation: only the consistency scope may keep a read off them
                .property("hibernate.rwsplit.max_lag", "0");
        pools.properties().forEach(unit::property);
        rwsplit.properties().forEach(unit::property);
        emf = unit.createEntityManagerFactory();
    }

    @Produces
    EntityManagerFactory entityManagerFactory() {
        return emf;
    }

    @PreDestroy
    void stop() {
        emf.close();
        pools.close();
    }
}
