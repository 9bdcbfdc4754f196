package io.rwsplit.bench.workload;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import jakarta.persistence.EntityManager;

import io.rwsplit.RwSplit;

/**
 * Names the consistency scope of a new {@code EntityManager} after the simulated user, so that a write
 * in one request protects the reads of the next ({@code RwSplit.scope(EntityManager, String)}, issue 4).
 * Looked up once, reflectively, so that the runner also builds and runs against a core that predates
 * issue 4; then {@link #available()} is false and modes that need a scope are reported as pending.
 */
final class ScopeBinder {

    private final MethodHandle scope;

    private ScopeBinder(MethodHandle scope) {
        this.scope = scope;
    }

    static ScopeBinder lookup() {
        try {
            return new ScopeBinder(MethodHandles.publicLookup().findStatic(RwSplit.class, "scope",
                    MethodType.methodType(void.class, EntityManager.class, String.class)));
        }
        catch (NoSuchMethodException | IllegalAccessException e) {
            try {
                // the method may return something (e.g. the EntityManager) rather than void
                return new ScopeBinder(MethodHandles.publicLookup().findStatic(RwSplit.class, "scope",
                        MethodType.methodType(EntityManager.class, EntityManager.class, String.class)));
            }
            catch (NoSuchMethodException | IllegalAccessException again) {
                return new ScopeBinder(null);
            }
        }
    }

    boolean available() {
        return scope != null;
    }

    void bind(EntityManager em, String key) {
        if (scope == null) {
            return;
        }
        try {
            scope.invoke(em, key);
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
