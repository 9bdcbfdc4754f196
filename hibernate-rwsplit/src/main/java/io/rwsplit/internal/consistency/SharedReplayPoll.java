package io.rwsplit.internal.consistency;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import io.rwsplit.position.LsnPosition;
import io.rwsplit.spi.Clock;

/**
 * One poll of a PostgreSQL standby's replayed position for all the reads waiting on it, where the standby has no
 * wait primitive and can only be asked ({@code pg_last_wal_replay_lsn()}). The first waiter to find no poller becomes
 * it: it asks the standby on its own connection, at most a {@linkplain #pace pace} apart, publishes each answer on the
 * {@link Board} (so that every waiter, and every later read of a position already replayed, knows it without asking)
 * and wakes the parked waiters. When its own position is replayed, or it gives up, it hands the poll to them. The
 * others park until woken or until their deadline; what the standby replayed, learned elsewhere (another read's check
 * in its own round trip, the health monitor: {@link #learned}), wakes them too. A read whose own check has just asked
 * the standby does not ask again at once.
 *
 * <p>So the standby is asked about once per pace however many reads wait on it, and a read wakes within about a
 * pace of the replay. The pace starts at {@link #FIRST_PACE_NANOS} and grows with the poller's own wait (a quarter
 * of it, at most {@link #MAX_PACE_NANOS}): a poll never comes later than a quarter of the time already waited after
 * the replay. On Java 17 {@code Thread.sleep} cannot pause for less than a millisecond, four times a standby's usual
 * replay under load here; the pause parks instead. Per standby; thread-safe and lock-free.
 */
final class SharedReplayPoll {

    /** The first pause of a poller: about the time one poll of an idle standby takes here, ten times. */
    static final long FIRST_PACE_NANOS = 100_000L;
    /** The longest pause between two polls, reached after the poller has waited four times as long. */
    static final long MAX_PACE_NANOS = 4_000_000L;

    /** What the waiters know and learn about the standby (its slot in {@link CausalReads}). */
    interface Board {
        /** Whether the standby is known to have replayed {@code need}, as it is now (an earlier poll saw it). */
        boolean replayed(LsnPosition need);

        /** The standby's epoch now; read before asking the standby, so that an answer from before a restart is ignored. */
        long epoch();

        /** The standby answered that it replayed {@code position}, asked in {@code epoch}. */
        void saw(LsnPosition position, long epoch);
    }

    private final Board board;
    private final AtomicReference<Thread> poller = new AtomicReference<>();
    private final ConcurrentLinkedQueue<Thread> waiting = new ConcurrentLinkedQueue<>();
    /** How many times the standby was asked. */
    private final LongAdder asks = new LongAdder();

    SharedReplayPoll(Board board) {
        this.board = board;
    }

    /**
     * Waits until the standby replayed {@code need} or the clock reaches {@code deadline} (nanos), asking the standby on
     * {@code standby} while this thread is the poller. {@code since} is when this read began to wait.
     *
     * @param justAsked the standby was asked just now, by this read's own check ({@link CausalReads#checkedInRead}): a
     *                  first question at once would tell nothing new, and the read waits for the poll's pace instead
     * @return whether the position is replayed, and whether it was at the first look; {@link WaitResult#NOT_APPLIED} on
     *         timeout, interrupt, or when the server answers that it is not a standby (promoted: its position is not
     *         comparable)
     */
    WaitResult await(Connection standby, LsnPosition need, long since, long deadline, Clock clock, boolean justAsked)
            throws SQLException {
        if (board.replayed(need)) {
            return WaitResult.ALREADY_APPLIED;
        }
        Thread me = Thread.currentThread();
        waiting.add(me);   // before the first look: a poll after it wakes this thread
        try {
            if (!justAsked) {
                LsnPosition replayed = ask(standby, me);   // at once, on its own connection: it may have replayed already
                if (replayed == null || replayed.contains(need)) {
                    return replayed == null ? WaitResult.NOT_APPLIED : WaitResult.ALREADY_APPLIED;
                }
            }
            while (true) {
                if (board.replayed(need)) {
                    return WaitResult.APPLIED_AFTER_WAITING;
                }
                long now = clock.nanoTime();
                long left = deadline - now;
                if (left <= 0 || me.isInterrupted()) {
                    return WaitResult.NOT_APPLIED;
                }
                if (poller.get() != me && !poller.compareAndSet(null, me)) {
                    // until an answer or the poller's leaving wakes it (both come after it joined the waiting), or
                    // the deadline
                    LockSupport.parkNanos(this, left);
                    continue;
                }
                LockSupport.parkNanos(this, Math.min(pace(now - since), left));
                if (board.replayed(need)) {
                    return WaitResult.APPLIED_AFTER_WAITING;   // another read's answer told it meanwhile
                }
                LsnPosition replayed = ask(standby, me);
                if (replayed == null || replayed.contains(need)) {
                    return replayed == null ? WaitResult.NOT_APPLIED : WaitResult.APPLIED_AFTER_WAITING;
                }
            }
        }
        finally {
            waiting.remove(me);
            if (poller.get() == me) {
                poller.set(null);
                wakeOthers(me);   // one of them polls next
            }
        }
    }

    /** Asks the standby what it replayed, publishes the answer and wakes the other waiters; null: not a standby. */
    private LsnPosition ask(Connection standby, Thread me) throws SQLException {
        long epoch = board.epoch();
        asks.increment();
        LsnPosition replayed = LsnWait.replayed(standby);
        if (replayed != null) {
            board.saw(replayed, epoch);
            wakeOthers(me);
        }
        return replayed;
    }

    /** The pause before the poller's next poll, after it has waited {@code waitedNanos}. */
    static long pace(long waitedNanos) {
        return Math.max(FIRST_PACE_NANOS, Math.min(waitedNanos / 4, MAX_PACE_NANOS));
    }

    /**
     * Something other than this poll learned that the standby replayed more (a read checked in its own round trip, the
     * health monitor): the waiting reads look at the board again, so that a read whose position is now known to be
     * replayed need not wait for the next poll. The poller is left to its pace: it looks at the board before it asks.
     * Nothing is allocated when no read waits.
     */
    void learned() {
        if (!waiting.isEmpty()) {
            wakeOthers(poller.get());
        }
    }

    /** How many times the standby was asked (its statistics). */
    long asks() {
        return asks.sum();
    }

    /** Whether some thread polls now (for tests). */
    boolean polling() {
        return poller.get() != null;
    }

    private void wakeOthers(Thread me) {
        for (Thread t : waiting) {
            if (t != me) {
                LockSupport.unpark(t);
            }
        }
    }
}
