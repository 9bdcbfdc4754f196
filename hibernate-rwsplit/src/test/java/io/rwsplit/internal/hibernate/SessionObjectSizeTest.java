package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.function.Supplier;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.internal.route.Router;

/**
 * Every Hibernate session of a routing unit makes one routing part: its fields are kept few and small, so that the part
 * is 40 bytes (Java 17, compressed references), and its consistency state is made only when the session needs one,
 * not with it. Measured as the thread's allocated bytes per part made, many kept at once (so that none is optimised
 * away).
 */
class SessionObjectSizeTest {

    private static final int MADE = 20_000;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final H2Pair dbs = new H2Pair();
    private EntityManagerFactory emf;

    @AfterEach
    void close() {
        if (emf != null) {
            emf.close();
        }
        dbs.close();
    }

    /** The least bytes per object of several rounds of making {@link #MADE} of them, kept in an array made before. */
    private static double bytesEach(Supplier<Object> make) {
        Object[] kept = new Object[MADE];
        long thread = Thread.currentThread().getId();
        double least = Double.MAX_VALUE;
        for (int round = 0; round < 8; round++) {
            long before = THREADS.getThreadAllocatedBytes(thread);
            for (int i = 0; i < MADE; i++) {
                kept[i] = make.get();
            }
            least = Math.min(least, (double) (THREADS.getThreadAllocatedBytes(thread) - before) / MADE);
        }
        assertNotNull(kept[MADE - 1]);
        return least;
    }

    @Test
    void aSessionsRoutingPartIsFortyBytesAndMakesNoConsistencyStateWithIt() {
        assumeTrue(THREADS.isThreadAllocatedMemoryEnabled(), "the JVM measures no thread allocation");
        com.sun.management.HotSpotDiagnosticMXBean vm =
                ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        assumeTrue("true".equals(vm.getVMOption("UseCompressedOops").getValue())
                && "true".equals(vm.getVMOption("UseCompressedClassPointers").getValue())
                && "8".equals(vm.getVMOption("ObjectAlignmentInBytes").getValue()),
                "compressed references and class pointers, 8-byte alignment (the JVM's defaults)");
        emf = dbs.factory();
        try (EntityManager em = emf.createEntityManager()) {
            SharedSessionContractImplementor session = em.unwrap(SharedSessionContractImplementor.class);
            Router router = RwSplitSessions.find(session).router();
            assertNotNull(router.causal(), "the unit tracks consistency, as by default");
            double part = bytesEach(() -> new RwSplitSession(session, router, true));
            System.out.printf("[session-object] a session's routing part %.1f B%n", part);
            assertTrue(part <= 40, "a session's routing part took " + part + " B: more than 40 (its consistency state is"
                    + " made when first needed, not with it)");
        }
    }
}
