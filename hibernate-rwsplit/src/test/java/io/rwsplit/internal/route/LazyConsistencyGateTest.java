package io.rwsplit.internal.route;

import java.sql.SQLException;

import io.rwsplit.Consistency;

/**
 * Every case of {@link ConsistencyGateTest} again, with sessions whose consistency state is made when first needed,
 * as a Hibernate session's is. Most cases make it at once (they write or require a token first, or set another level);
 * those that read first decide that read without it.
 */
class LazyConsistencyGateTest extends ConsistencyGateTest {

    @Override
    SessionRouting session(Consistency level) throws SQLException {
        if (servers == null) {
            servers = new Servers(2, "round_robin", true);
        }
        SessionRouting session = servers.lazySession();
        if (!level.equals(servers.router.causal().defaultLevel())) {
            session.consistency().level(level);
        }
        return session;
    }
}
