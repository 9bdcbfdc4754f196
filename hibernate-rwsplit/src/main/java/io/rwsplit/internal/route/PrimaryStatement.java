package io.rwsplit.internal.route;

import java.sql.Connection;
import java.sql.PreparedStatement;

/**
 * A statement prepared on the primary: forwarding only, so that {@link #getConnection()} returns the routing
 * connection rather than the physical one.
 */
final class PrimaryStatement extends ForwardingPreparedStatement {

    PrimaryStatement(Connection owner, PreparedStatement delegate) {
        super(owner, delegate, false);
    }
}
