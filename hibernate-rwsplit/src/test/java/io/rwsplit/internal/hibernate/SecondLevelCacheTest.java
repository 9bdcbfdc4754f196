package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.CacheMode;
import org.hibernate.Session;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.RwSplit;

/** Replica reads never seed the shared second-level cache unless the application allows it. */
class SecondLevelCacheTest {

    private H2Pair h2;

    @BeforeEach
    void setUp() {
        h2 = new H2Pair();
    }

    @AfterEach
    void tearDown() {
        h2.close();
    }

    private EntityManagerFactory factory(boolean replicaPuts) {
        HibernatePersistenceConfiguration cfg = new HibernatePersistenceConfiguration("cache-test")
                .managedClass(CachedPerson.class);
        Map<String, Object> settings = h2.settings();
        settings.put("hibernate.cache.use_second_level_cache", "true");
        settings.put("hibernate.cache.region.factory_class", "jcache");
        settings.put("hibernate.javax.cache.provider", "com.github.benmanes.caffeine.jcache.spi.CaffeineCachingProvider");
        settings.put("hibernate.javax.cache.missing_cache_strategy", "create");
        if (replicaPuts) {
            settings.put("hibernate.rwsplit.replica_cache_puts", "true");
        }
        settings.forEach(cfg::property);
        return cfg.createEntityManagerFactory();
    }

    @Test
    void entityReadFromReplicaIsNotPutIntoTheSecondLevelCache() {
        try (EntityManagerFactory emf = factory(false)) {
            try (EntityManager em = emf.createEntityManager()) {
                assertEquals("replica-alice", em.find(CachedPerson.class, 1L).name);
                assertEquals(CacheMode.NORMAL, em.unwrap(Session.class).getCacheMode(), "cache mode restored");
            }
            assertFalse(emf.getCache().contains(CachedPerson.class, 1L));
            try (EntityManager em = emf.createEntityManager()) {
                assertEquals("primary-alice", RwSplit.onPrimary(em, () -> em.find(CachedPerson.class, 1L).name));
            }
            assertTrue(emf.getCache().contains(CachedPerson.class, 1L), "primary reads are cached as usual");
            try (EntityManager em = emf.createEntityManager()) {
                assertEquals("primary-alice", em.find(CachedPerson.class, 1L).name, "served from the cache");
                assertEquals(0, RwSplit.statistics(em).totalStatements());
            }
        }
    }

    @Test
    void replicaCachePutsCanBeAllowed() {
        try (EntityManagerFactory emf = factory(true)) {
            try (EntityManager em = emf.createEntityManager()) {
                assertEquals("replica-alice", em.find(CachedPerson.class, 1L).name);
            }
            assertTrue(emf.getCache().contains(CachedPerson.class, 1L));
        }
    }
}
