package io.rwsplit.internal.replica;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.rwsplit.RwSplitSettings;
import io.rwsplit.internal.config.Secrets;
import io.rwsplit.internal.health.ConnectionErrors;
import io.rwsplit.internal.replica.PrimarySource;
import io.rwsplit.spi.Clock;

/**
 * A circuit breaker in front of the primary. CLOSED: connections are obtained as usual and consecutive
 * failures are counted; at {@code primary_failure_threshold} it opens. OPEN: every acquisition fails at
 * once with an {@link SQLTransientConnectionException} naming the breaker state, instead of piling
 * threads up on connection timeouts. A trial (HALF_OPEN; others keep failing fast meanwhile) closes
 * the breaker on success and opens it for another cool-down on failure. Trials come from two places:
 * the replica monitor's {@link #probe()}, every probe interval on its own thread, so that the breaker
 * closes as soon as the primary (a new one, after a failover) answers; and, where no monitor probes,
 * the first acquisition after {@code primary_cool_down}. Lock-free; the closed path costs one volatile read.
 * <p>
 * Saturation is not failure: every failure to obtain a connection counts except the pool's own timeout
 * ({@link ConnectionErrors#isPoolTimeout}: a burst of slow transactions holds every connection), which says
 * nothing about the primary. It neither counts as a failure nor resets the count, and a trial that meets it leaves
 * the breaker OPEN for the next acquisition or probe to try again.
 */
public final class PrimaryBreaker implements PrimarySource {

    /** The breaker's states. */
    public enum State { CLOSED, OPEN, HALF_OPEN }

    private static final Logger log = LoggerFactory.getLogger(PrimaryBreaker.class);

    private final String label;
    private final PrimarySource delegate;
    private final int threshold;
    private final long coolDownNanos;
    private final Clock clock;
    private final AtomicReference<State> state = new AtomicReference<>(State.CLOSED);
    private final AtomicInteger failures = new AtomicInteger();
    private volatile long openedAtNanos;
    private volatile long openedAtMicros;
    private volatile String lastFailure;

    public PrimaryBreaker(String label, PrimarySource delegate, int threshold, java.time.Duration coolDown, Clock clock) {
        if (threshold < 1) {
            throw new IllegalArgumentException("threshold must be at least 1: " + threshold);
        }
        this.label = label;
        this.delegate = delegate;
        this.threshold = threshold;
        this.coolDownNanos = coolDown.toNanos();
        this.clock = clock;
    }

    @Override
    public Connection acquire() throws SQLException {
        State s = state.get();
        boolean trial = s != State.CLOSED;
        if (trial) {
            if (s == State.HALF_OPEN || clock.nanoTime() - openedAtNanos < coolDownNanos
                    || !state.compareAndSet(State.OPEN, State.HALF_OPEN)) {
                throw open();
            }
            log.info("[{}] primary circuit breaker HALF_OPEN: trying one connection", label);
        }
        Connection c;
        try {
            c = delegate.acquire();
        }
        catch (SQLException e) {
            if (ConnectionErrors.isPoolTimeout(e)) {
                poolBusy(trial);
            }
            else {
                failed(e);
            }
            throw e;
        }
        catch (RuntimeException e) {
            failed(e);
            throw e;
        }
        if (failures.get() != 0 || state.get() != State.CLOSED) {
            failures.set(0);
            if (state.getAndSet(State.CLOSED) != State.CLOSED) {
                log.info("[{}] primary circuit breaker CLOSED: the primary answers again", label);
            }
        }
        return c;
    }

    /**
     * One trial connection on the caller's thread (the replica monitor's) while the breaker is OPEN, whatever
     * the cool-down: success closes the breaker, failure keeps it open. Does nothing while CLOSED, or while
     * another trial runs.
     */
    public void probe() {
        if (state.get() != State.OPEN || !state.compareAndSet(State.OPEN, State.HALF_OPEN)) {
            return;
        }
        Connection c;
        try {
            c = delegate.acquire();
        }
        catch (SQLException e) {
            if (ConnectionErrors.isPoolTimeout(e)) {
                poolBusy(true);
            }
            else {
                failed(e);
            }
            return;
        }
        catch (RuntimeException e) {
            failed(e);
            return;
        }
        try {
            delegate.release(c);
        }
        catch (SQLException | RuntimeException e) {
            log.debug("[{}] releasing the breaker's trial connection failed: {}", label, e.toString());
        }
        failures.set(0);
        if (state.compareAndSet(State.HALF_OPEN, State.CLOSED)) {
            log.info("[{}] primary circuit breaker CLOSED: the primary answers again (probe)", label);
        }
    }

    @Override
    public void release(Connection connection) throws SQLException {
        delegate.release(connection);
    }

    @Override
    public void evict(Connection connection) {
        delegate.evict(connection);
    }

    /** The pool could not lend a connection in time: not a failure of the primary; a trial that met it did not happen. */
    private void poolBusy(boolean trial) {
        if (trial && state.compareAndSet(State.HALF_OPEN, State.OPEN)) {
            log.debug("[{}] primary circuit breaker trial found the pool busy: still OPEN, the next acquisition tries again",
                    label);
        }
    }

    private void failed(Exception e) {
        lastFailure = Secrets.describe(e);
        int n = failures.incrementAndGet();
        State s = state.get();
        if (s == State.HALF_OPEN || (s == State.CLOSED && n >= threshold)) {
            openedAtNanos = clock.nanoTime();
            openedAtMicros = clock.epochMicros();
            if (state.compareAndSet(s, State.OPEN) && s == State.CLOSED) {
                log.warn("[{}] primary circuit breaker OPEN after {} consecutive connection failures, failing fast for {} ms: {}",
                        label, n, coolDownNanos / 1_000_000, lastFailure);
            }
        }
    }

    private SQLException open() {
        long micros = openedAtMicros;
        Instant since = Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000);
        return new SQLTransientConnectionException("hibernate-rwsplit [" + label + "]: primary circuit breaker "
                + state.get() + " since " + since + ", retry after " + since.plusNanos(coolDownNanos) + " (setting '"
                + RwSplitSettings.PRIMARY_COOL_DOWN + "'); last failure: " + lastFailure, "08001");
    }

    public State state() {
        return state.get();
    }

    @Override
    public String toString() {
        return "PrimaryBreaker[" + label + ", " + state.get() + "]";
    }
}
