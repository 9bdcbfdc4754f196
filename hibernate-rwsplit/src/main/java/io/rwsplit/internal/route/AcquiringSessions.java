package io.rwsplit.internal.route;

/**
 * Hands the session that is acquiring a connection (Hibernate's {@code jdbcConnectionAcquisitionStart}) to the
 * connection provider's {@link Router#open} on the same thread: Hibernate gives the provider no session. One slot per
 * thread, written in place (a {@code ThreadLocal.set} per acquisition costs more than a read of the thread's slot).
 * {@link #take} empties it; {@link #end} looks it up again only for an acquisition that never reached the provider
 * (another listener failed first), and clears it only of its own session. One per router.
 */
final class AcquiringSessions {

    private final ThreadLocal<SessionRouting[]> slots = ThreadLocal.withInitial(() -> new SessionRouting[1]);

    /** {@code session} acquires a connection on this thread. */
    void begin(SessionRouting session) {
        slots.get()[0] = session;
        session.acquiring = true;
    }

    /** The session acquiring a connection on this thread, taken out of its slot; null when none is. */
    SessionRouting take() {
        SessionRouting[] slot = slots.get();
        SessionRouting session = slot[0];
        if (session != null) {
            slot[0] = null;
            session.acquiring = false;
        }
        return session;
    }

    /** {@code session}'s acquisition ended, with or without a connection. */
    void end(SessionRouting session) {
        if (session.acquiring) {
            session.acquiring = false;
            SessionRouting[] slot = slots.get();
            if (slot[0] == session) {
                slot[0] = null;
            }
        }
    }
}
