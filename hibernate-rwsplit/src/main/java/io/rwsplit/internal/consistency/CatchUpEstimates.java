package io.rwsplit.internal.consistency;

import java.util.concurrent.atomic.AtomicLongArray;

import io.rwsplit.spi.Clock;

/**
 * Whether waiting on a replica for a write can succeed within {@code causal_wait_timeout}, from what the replica
 * really did: a write it was seen to have applied proves how far behind it was at most (it had applied a write
 * committed at {@code c} when seen at {@code t}: at most {@code t - c} behind), a wait that timed out proves it
 * was at least that far behind. Only without such recent evidence does the lag the health monitor measured
 * decide (a peak over its window, which stays high for a while after the replica has caught up). A replica
 * that applies writes {@code lag} after they commit applies a write committed at {@code c} at about
 * {@code c + lag}; when that is further away than the timeout, a wait would only delay the read that then goes
 * to the primary.
 *
 * <p><b>Replicas that can only be polled</b> (PostgreSQL standbys without {@code WAIT FOR LSN}) are also waited for
 * only when their recent replay time is known and says the write will be replayed within the timeout: a wait there
 * costs polls, where a server-side wait ({@code MASTER_GTID_WAIT}, {@code WAIT FOR LSN}) costs one statement whatever
 * it finds. The replay time is how long after their commit the replica's successful waits saw writes replayed
 * (smoothed, a quarter of each new sample); the expected wait is that minus the age of the write. A replica whose
 * replay time is unknown (no successful wait in the last {@link #REMEMBER_NANOS}) or too long is not waited for,
 * except by one trial read per {@link #TRIAL_NANOS}, which keeps the estimate current. Thread-safe, lock-free; the
 * routing path reads a few array slots, a volatile and the clock.
 */
final class CatchUpEstimates {

    /** How long a timed-out wait keeps counting as a lower bound of the replica's lag. */
    static final long REMEMBER_NANOS = 1_000_000_000L;
    /**
     * While only a timed-out wait says a replica cannot catch up (its measured lag says it can), one read this often
     * may wait on it anyway: a trial. A replica that stalled once (a burst of writes, a checkpoint) and keeps up
     * again is waited for again after one trial instead of after {@link #REMEMBER_NANOS}; one that is still behind
     * costs one read one wait per trial interval.
     */
    static final long TRIAL_NANOS = 50_000_000L;

    private final Clock clock;
    private final long waitMicros;
    /** Per replica: the lag a timed-out wait proved (micros), and when (nanos). */
    private final AtomicLongArray timeoutLag;
    private final AtomicLongArray timeoutAt;
    /** Per replica: the most it can have been behind, proven by a write it had applied (micros), and when (nanos). */
    private final AtomicLongArray appliedLag;
    private final AtomicLongArray appliedAt;
    /** Per replica: when the last trial began (nanos), see {@link #TRIAL_NANOS}. */
    private final AtomicLongArray trialAt;
    /** Per replica: its smoothed replay time (micros, commit to seen replayed by a wait), and when last updated (nanos). */
    private final AtomicLongArray replayMicros;
    private final AtomicLongArray replayAt;
    /** Whether waits on these replicas are polls (see the class comment); set once the server kind is known. */
    private volatile boolean polled;

    CatchUpEstimates(Clock clock, long waitMicros, int replicas) {
        this.clock = clock;
        this.waitMicros = waitMicros;
        this.timeoutLag = new AtomicLongArray(replicas);
        this.timeoutAt = new AtomicLongArray(replicas);
        this.appliedLag = new AtomicLongArray(replicas);
        this.appliedAt = new AtomicLongArray(replicas);
        this.trialAt = new AtomicLongArray(replicas);
        this.replayMicros = new AtomicLongArray(replicas);
        this.replayAt = new AtomicLongArray(replicas);
    }

    /** Waits on these replicas are polls: they need a known replay time (see the class comment). */
    void polled(boolean polled) {
        this.polled = polled;
    }

    /** Whether waits on these replicas are polls (false until the server kind is known). */
    boolean polled() {
        return polled;
    }

    /**
     * Whether replica {@code index}, last measured {@code measuredLagMicros} behind, can apply a write committed
     * at {@code commitMicros} (epoch) within the wait timeout. Never when waiting is disabled.
     */
    boolean canCatchUp(int index, long measuredLagMicros, long commitMicros) {
        if (waitMicros <= 0) {
            return false;
        }
        long now = clock.nanoTime();
        long lag = measuredLagMicros;
        long seen = appliedAt.get(index);
        if (seen != 0 && now - seen <= REMEMBER_NANOS) {
            lag = Math.min(lag, appliedLag.get(index));   // what the replica did beats the probe's peak
        }
        long nowMicros = clock.epochMicros();
        if (commitMicros + lag - nowMicros >= waitMicros) {
            return false;
        }
        long timeout = recentTimeoutLag(index);
        boolean worth = commitMicros + timeout - nowMicros < waitMicros;
        if (worth && polled) {
            worth = replayedInTime(index, commitMicros, now, nowMicros);
        }
        return worth || trial(index, now);
    }

    /** Whether replica {@code index}'s known replay time says it replays a write committed at {@code commitMicros} in time. */
    private boolean replayedInTime(int index, long commitMicros, long now, long nowMicros) {
        long updated = replayAt.get(index);
        if (updated == 0 || now - updated > REMEMBER_NANOS) {
            return false;   // unknown: only a trial waits
        }
        return commitMicros + replayMicros.get(index) - nowMicros < waitMicros;
    }

    /** Whether this read is the trial of replica {@code index} (at most one per {@link #TRIAL_NANOS}, since the timeout). */
    private boolean trial(int index, long now) {
        long previous = trialAt.get(index);
        long last = Math.max(previous, timeoutAt.get(index));
        return now - last >= TRIAL_NANOS && trialAt.compareAndSet(index, previous, Math.max(1, now));
    }

    /** Replica {@code index} was seen, just now, to have applied a write committed at {@code commitMicros} (epoch). */
    void applied(int index, long commitMicros) {
        appliedLag.set(index, Math.max(0, clock.epochMicros() - commitMicros));
        appliedAt.set(index, Math.max(1, clock.nanoTime()));
    }

    /** A wait on replica {@code index} for a write committed at {@code commitMicros} timed out just now. */
    void timedOut(int index, long commitMicros) {
        long provenLag = clock.epochMicros() - commitMicros;
        timeoutLag.set(index, Math.max(provenLag, waitMicros));
        timeoutAt.set(index, clock.nanoTime());
    }

    /**
     * A wait saw replica {@code index} apply a write committed at {@code commitMicros} in time: earlier timeouts say
     * nothing any more. {@code waited}: the write was not applied at the first look, so the time since its commit is a
     * sample of the replay time. Otherwise that time is only an upper bound (a read that comes late finds an old write
     * replayed however quickly it was): it lowers a longer estimate, keeps a shorter one current, and stands for an
     * unknown one.
     */
    void caughtUp(int index, long commitMicros, boolean waited) {
        if (timeoutLag.get(index) != 0) {
            timeoutLag.set(index, 0);
        }
        applied(index, commitMicros);
        long now = clock.nanoTime();
        long sample = Math.max(0, clock.epochMicros() - commitMicros);
        long updated = replayAt.get(index);
        long previous = replayMicros.get(index);
        boolean fresh = updated != 0 && now - updated <= REMEMBER_NANOS;
        if (fresh && (waited || sample < previous)) {
            replayMicros.set(index, previous + (sample - previous) / 4);
        }
        else if (!fresh) {
            replayMicros.set(index, sample);
        }
        replayAt.set(index, Math.max(1, now));
    }

    private long recentTimeoutLag(int index) {
        long lag = timeoutLag.get(index);
        if (lag == 0 || clock.nanoTime() - timeoutAt.get(index) > REMEMBER_NANOS) {
            return 0;
        }
        return lag;
    }
}
