package io.rwsplit.cdi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.RwSplit;
import io.rwsplit.internal.config.Secrets;
import io.rwsplit.health.ReplicaState;
import io.rwsplit.health.ReplicaStatus;

/**
 * Replica state changes as CDI events ({@link ReplicaStateChanged}), read from the core's health snapshot
 * ({@code RwSplit.health}). The core has no listener API: changes are found by comparing snapshots, either
 * when the application calls {@link #check} (from its own scheduler) or every {@code interval} after
 * {@link #watch} (one daemon thread, stopped with the container). Observers run on the checking thread,
 * without a request context; a change shorter than the interval may go unseen.
 */
@ApplicationScoped
public class ReplicaStateEvents {

    private static final Logger log = LoggerFactory.getLogger(ReplicaStateEvents.class);

    @Inject
    Event<ReplicaStateChanged> events;

    private final Map<EntityManagerFactory, Map<String, ReplicaState>> known = new HashMap<>();
    private ScheduledExecutorService scheduler;

    /** Fires one event per replica of {@code factory} whose state changed since the previous check; returns them. */
    public List<ReplicaStateChanged> check(EntityManagerFactory factory) {
        List<ReplicaStateChanged> changes = new ArrayList<>();
        synchronized (known) {
            Map<String, ReplicaState> last = known.computeIfAbsent(factory, f -> new HashMap<>());
            for (ReplicaStatus status : RwSplit.health(factory).replicas()) {
                ReplicaState previous = last.getOrDefault(status.name(), ReplicaState.UP);
                if (previous != status.state()) {
                    changes.add(new ReplicaStateChanged(status.name(), previous, status));
                }
                last.put(status.name(), status.state());
            }
        }
        changes.forEach(events::fire);
        return changes;
    }

    /** Checks {@code factory} every {@code interval} until the container stops. */
    public synchronized void watch(EntityManagerFactory factory, Duration interval) {
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("hibernate-rwsplit-cdi: the interval of watch(...) must be positive, was "
                    + interval);
        }
        if (scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "rwsplit-cdi-replica-events");
                t.setDaemon(true);
                return t;
            });
        }
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                if (factory.isOpen()) {
                    check(factory);
                }
            }
            catch (RuntimeException e) {
                log.warn("hibernate-rwsplit-cdi: replica state check failed: {}", Secrets.describe(e));
            }
        }, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    @PreDestroy
    synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }
}
