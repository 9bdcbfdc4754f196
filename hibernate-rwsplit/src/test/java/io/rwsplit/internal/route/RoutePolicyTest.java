package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rwsplit.Intent;
import io.rwsplit.RouteReason;
import io.rwsplit.internal.route.TransactionTracker.Kind;

/**
 * The routing table of the README, one row per rule (and the rows that show their order). Columns: the
 * statement's kind and hint, the transaction's kind, whether the connection is read-only, the session's
 * intent, whether it flushes, whether an earlier statement pinned the connection to the primary, whether
 * the statement is a session setting that replicas replay; then the decision: reason, and its effects (R refused, P promotes the
 * transaction to read-write, W recorded as a write, G the consistency level decides; - none).
 */
class RoutePolicyTest {

    @ParameterizedTest(name = "{index}: {0} {1} tx={2} ro={3} intent={4} flush={5} pinned={6} replayed={7} -> {8} {9}")
    @CsvSource(delimiter = '|', textBlock = """
            # rule 1: statements that only the primary may run
            WRITE            | NONE    | NONE                | false | NONE    | false | false | false | WRITE                  | W
            LOCKING_READ     | NONE    | NONE                | false | NONE    | false | false | false | LOCKING_READ           | -
            DDL              | NONE    | NONE                | false | NONE    | false | false | false | PRIMARY_ONLY_STATEMENT | W
            CALL             | NONE    | NONE                | false | NONE    | false | false | false | PRIMARY_ONLY_STATEMENT | W
            SESSION          | NONE    | NONE                | false | NONE    | false | false | false | PRIMARY_ONLY_STATEMENT | -
            PRIMARY_FUNCTION | NONE    | NONE                | false | NONE    | false | false | false | PRIMARY_ONLY_STATEMENT | -
            OTHER            | NONE    | NONE                | false | NONE    | false | false | false | PRIMARY_ONLY_STATEMENT | W
            # rule 1 comes first: a hint, an intent or a read-only transaction never sends a write to a replica
            WRITE            | REPLICA | NONE                | false | REPLICA | false | false | false | WRITE                  | W
            LOCKING_READ     | REPLICA | READ_ONLY_PREFERRED | false | REPLICA | false | false | false | LOCKING_READ           | P
            # a write in a read-only context
            WRITE            | NONE    | READ_ONLY_STRICT    | true  | NONE    | false | false | false | WRITE                  | R
            WRITE            | NONE    | NONE                | true  | NONE    | false | false | false | WRITE                  | R
            DDL              | NONE    | READ_ONLY_STRICT    | true  | NONE    | false | false | false | PRIMARY_ONLY_STATEMENT | R
            SESSION          | NONE    | READ_ONLY_STRICT    | true  | NONE    | false | false | false | PRIMARY_ONLY_STATEMENT | -
            # a session setting that replicas replay: its own reason, never refused, not a write
            SESSION          | NONE    | NONE                | false | NONE    | false | false | true  | SESSION_COMMAND        | -
            SESSION          | NONE    | READ_ONLY_STRICT    | true  | NONE    | false | false | true  | SESSION_COMMAND        | -
            PRIMARY_FUNCTION | NONE    | READ_ONLY_PREFERRED | false | NONE    | false | false | true  | SESSION_COMMAND        | -
            WRITE            | NONE    | READ_ONLY_PREFERRED | false | REPLICA | false | false | false | WRITE                  | PW
            # rule 1b: after a statement that left session state on the primary, the rest of the connection stays there
            READ             | REPLICA | NONE                | false | REPLICA | false | true  | false | SESSION_STATE          | -
            READ             | NONE    | READ_ONLY_STRICT    | true  | NONE    | false | true  | false | SESSION_STATE          | -
            WRITE            | NONE    | NONE                | false | NONE    | false | true  | false | WRITE                  | W
            # rule 2: anything while the session flushes
            READ             | REPLICA | NONE                | false | REPLICA | true  | false | false | FLUSH                  | -
            # rule 3: a transaction not declared read-only, from its first statement
            READ             | REPLICA | READ_WRITE          | false | REPLICA | false | false | false | WRITE_TRANSACTION      | -
            # rule 4: an explicit primary intent
            READ             | PRIMARY | NONE                | false | NONE    | false | false | false | PRIMARY_HINT           | -
            READ             | NONE    | NONE                | false | PRIMARY | false | false | false | PRIMARY_HINT           | -
            READ             | PRIMARY | READ_ONLY_STRICT    | true  | REPLICA | false | false | false | PRIMARY_HINT           | -
            # rule 5: a read-only transaction reads from one replica
            READ             | NONE    | READ_ONLY_STRICT    | true  | NONE    | false | false | false | READ_ONLY_TRANSACTION  | G
            READ             | REPLICA | READ_ONLY_PREFERRED | false | REPLICA | false | false | false | READ_ONLY_TRANSACTION  | G
            # rule 6: an explicit replica intent, then any other read outside a transaction
            READ             | REPLICA | NONE                | false | NONE    | false | false | false | REPLICA_HINT           | G
            READ             | NONE    | NONE                | false | REPLICA | false | false | false | REPLICA_HINT           | G
            READ             | NONE    | NONE                | false | NONE    | false | false | false | REPLICA_READ           | G
            READ             | NONE    | NONE                | true  | NONE    | false | false | false | REPLICA_READ           | G
            """)
    void routesByTheTable(SqlKind kind, SqlHint hint, Kind tx, boolean readOnly, Intent intent, boolean flushing,
                          boolean pinned, boolean sessionCommand, RouteReason reason, String effects) {
        RoutePolicy.Route route = RoutePolicy.decide(kind, hint, tx, readOnly, intent, flushing, pinned, sessionCommand);
        assertEquals(reason, route.reason());
        String actual = (route.refused() ? "R" : "") + (route.promotes() ? "P" : "") + (route.recordsWrite() ? "W" : "")
                + (route.gated() ? "G" : "");
        assertEquals(effects.equals("-") ? "" : effects, actual);
    }
}
