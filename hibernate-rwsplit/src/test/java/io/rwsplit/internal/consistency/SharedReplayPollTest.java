package io.rwsplit.internal.consistency;

import static io.rwsplit.testing.JdbcFakes.fake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rwsplit.position.LsnPosition;
import io.rwsplit.testing.FakeClock;

/**
 * Reads waiting on one standby share one poll: against a scripted standby whose replayed position the test moves,
 * and which records the thread of each ask. The fake clock stands still, so no deadline passes unless a test says so.
 */
class SharedReplayPollTest {

    private static final long FAR = TimeUnit.SECONDS.toNanos(3_600);

    private final FakeClock clock = new FakeClock();
    private final AtomicReference<String> replayed = new AtomicReference<>("0/100");
    private final List<Thread> askedBy = new CopyOnWriteArrayList<>();
    /** One permit per ask; one per thread's first ask. */
    private final Semaphore asks = new Semaphore(0);
    private final Semaphore firstAsks = new Semaphore(0);
    private final Set<Thread> haveAsked = ConcurrentHashMap.newKeySet();
    private int consumed;
    private final MemoryBoard board = new MemoryBoard();
    private final SharedReplayPoll poll = new SharedReplayPoll(board);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    /** Asks of this thread that begin after it is set hang (after being counted) until {@link #unhang}. */
    private volatile Thread hangIn;
    private final CountDownLatch hanging = new CountDownLatch(1);
    private final CountDownLatch unhang = new CountDownLatch(1);

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    private Connection standby() {
        return fake(Connection.class, (name, args) -> name.equals("prepareStatement")
                ? fake(PreparedStatement.class, (sName, sArgs) -> {
                    if (!sName.equals("executeQuery")) {
                        return null;
                    }
                    // decided before the ask is counted: a test that sets hangIn once it saw an ask counted means
                    // the thread's next ask, not the one it saw
                    boolean hang = Thread.currentThread() == hangIn;
                    askedBy.add(Thread.currentThread());
                    if (haveAsked.add(Thread.currentThread())) {
                        firstAsks.release();
                    }
                    asks.release();
                    if (hang) {
                        hanging.countDown();
                        assertTrue(unhang.await(10, TimeUnit.SECONDS), "the test ends the hanging ask");
                    }
                    String answer = replayed.get();
                    return fake(ResultSet.class, (rName, rArgs) -> switch (rName) {
                        case "next" -> true;
                        case "getString" -> answer;
                        default -> null;
                    });
                })
                : null);
    }

    private Future<Boolean> waitFor(String position, CountDownLatch started) {
        return threads.submit(() -> {
            started.countDown();
            long now = clock.nanoTime();
            return poll.await(standby(), LsnPosition.parse(position), now, now + FAR, clock, false).applied();
        });
    }

    /** Waits until the standby has been asked {@code count} times in all. */
    private void untilAsked(int count) throws InterruptedException {
        int more = Math.max(0, count - consumed);
        assertTrue(asks.tryAcquire(more, 10, TimeUnit.SECONDS), "the standby was asked " + askedBy.size() + " times, not " + count);
        consumed += more;
    }

    /** Waits until {@code count} different threads have asked the standby. */
    private void untilAskedBy(int count) throws InterruptedException {
        assertTrue(firstAsks.tryAcquire(count, 10, TimeUnit.SECONDS), "threads that asked the standby: " + haveAsked.size());
    }

    @Test
    void fourWaitingReadsAskTheStandbyThroughOnePollerAndAllWakeWhenItReplayed() throws Exception {
        CountDownLatch started = new CountDownLatch(4);
        List<Future<Boolean>> reads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            reads.add(waitFor("0/200", started));
        }
        started.await();
        untilAskedBy(4);  // each asks once at once; then only the poller asks
        untilAsked(askedBy.size());
        int from = askedBy.size();
        untilAsked(from + 20);
        Set<Thread> pollers = new HashSet<>(new ArrayList<>(askedBy).subList(from, from + 20));   // a copy: the list grows meanwhile
        assertEquals(1, pollers.size(), "while the standby is behind, one thread asks it: " + pollers);

        replayed.set("0/200");
        for (Future<Boolean> read : reads) {
            assertTrue(read.get(10, TimeUnit.SECONDS));
        }
        assertFalse(poll.polling(), "the poller left with the others");
    }

    @Test
    void thePollPassesToAWaiterThatStillNeedsMoreWhenThePollerIsDone() throws Exception {
        CountDownLatch first = new CountDownLatch(1);
        Future<Boolean> early = waitFor("0/150", first);
        first.await();
        untilAsked(3);
        CountDownLatch second = new CountDownLatch(1);
        Future<Boolean> late = waitFor("0/200", second);
        second.await();
        untilAsked(askedBy.size() + 3);

        replayed.set("0/180");
        assertTrue(early.get(10, TimeUnit.SECONDS));
        int from = askedBy.size();
        untilAsked(from + 5);
        assertFalse(late.isDone(), "0/200 is not replayed yet");
        assertTrue(poll.polling(), "the waiter left behind polls now");

        replayed.set("0/200");
        assertTrue(late.get(10, TimeUnit.SECONDS));
        assertFalse(poll.polling());
    }

    @Test
    void aPositionAnotherPollAlreadySawIsNotAskedFor() throws Exception {
        board.saw(LsnPosition.parse("0/300"), 1);
        long now = clock.nanoTime();
        assertEquals(WaitResult.ALREADY_APPLIED, poll.await(standby(), LsnPosition.parse("0/200"), now, now + FAR, clock, false));
        assertEquals(List.of(), askedBy);
    }

    @Test
    void aServerThatIsNoStandbyEndsTheWaitAsNotReplayed() throws Exception {
        replayed.set(null);
        long now = clock.nanoTime();
        assertEquals(WaitResult.NOT_APPLIED, poll.await(standby(), LsnPosition.parse("0/200"), now, now + FAR, clock, false));
        assertFalse(poll.polling());
    }

    @Test
    void aWaitWhoseDeadlinePassedGivesUpAfterItsFirstAsk() throws Exception {
        long now = clock.nanoTime();
        assertEquals(WaitResult.NOT_APPLIED, poll.await(standby(), LsnPosition.parse("0/200"), now, now, clock, false));
        assertEquals(1, askedBy.size());
        assertFalse(poll.polling());
    }

    @Test
    void aReadWhoseOwnCheckHasJustAskedTheStandbyDoesNotAskItAgainAtOnce() throws Exception {
        long now = clock.nanoTime();
        assertEquals(WaitResult.NOT_APPLIED, poll.await(standby(), LsnPosition.parse("0/200"), now, now, clock, true));
        assertEquals(List.of(), askedBy, "its check was the question");
    }

    @Test
    void aReadWhoseOwnCheckHasJustAskedAsksAfterThePollsPace() throws Exception {
        replayed.set("0/200");
        long now = clock.nanoTime();
        assertEquals(WaitResult.APPLIED_AFTER_WAITING,
                poll.await(standby(), LsnPosition.parse("0/200"), now, now + FAR, clock, true));
        assertEquals(1, askedBy.size());
    }

    @Test
    void aParkedReadWakesWhenWhatTheStandbyReplayedIsLearnedElsewhere() throws Exception {
        CountDownLatch first = new CountDownLatch(1);
        Future<Boolean> poller = waitFor("0/300", first);
        first.await();
        untilAsked(1);
        hangIn = askedBy.get(0);   // its next ask, as the poller, hangs
        assertTrue(hanging.await(10, TimeUnit.SECONDS), "the poller asks again");

        AtomicReference<Thread> waiter = new AtomicReference<>();
        Future<WaitResult> checked = threads.submit(() -> {
            waiter.set(Thread.currentThread());
            long now = clock.nanoTime();
            return poll.await(standby(), LsnPosition.parse("0/200"), now, now + FAR, clock, true);
        });
        untilParkedOnThePoll(waiter);
        assertFalse(askedBy.contains(waiter.get()), "its check was the question, and another read polls");

        board.saw(LsnPosition.parse("0/200"), 1);   // another read's check answered
        poll.learned();
        assertEquals(WaitResult.APPLIED_AFTER_WAITING, checked.get(10, TimeUnit.SECONDS));

        replayed.set("0/300");
        unhang.countDown();
        assertTrue(poller.get(10, TimeUnit.SECONDS));
        assertFalse(poll.polling());
    }

    /** Waits until the thread in {@code thread} is parked in the poll (it set it first thing). */
    private void untilParkedOnThePoll(AtomicReference<Thread> thread) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.get() == null || java.util.concurrent.locks.LockSupport.getBlocker(thread.get()) != poll) {
            assertTrue(System.nanoTime() < until, "the read never parked on the poll");
            Thread.onSpinWait();
        }
    }

    @Test
    void thePaceStartsAtATenthOfAMillisecondAndGrowsWithTheWaitToFourMilliseconds() {
        assertEquals(100_000L, SharedReplayPoll.pace(0));
        assertEquals(100_000L, SharedReplayPoll.pace(400_000));
        assertEquals(500_000L, SharedReplayPoll.pace(2_000_000));
        assertEquals(4_000_000L, SharedReplayPoll.pace(1_000_000_000));
    }
}
