package io.rwsplit.internal.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The connections a replica lent: counted while lent, forgotten when given back, and handed to the monitor once
 * each, beyond one block of slots too.
 */
class LentConnectionsTest {

    private static Connection connection() {
        return (Connection) Proxy.newProxyInstance(LentConnectionsTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> method.getName().equals("hashCode")
                        ? System.identityHashCode(proxy) : method.getName().equals("equals") ? proxy == args[0] : null);
    }

    @Test
    void countsTheConnectionsLentAndForgetsThoseGivenBackBeyondOneBlock() {
        LentConnections lent = new LentConnections();
        List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < 2 * LentConnections.BLOCK + 3; i++) {
            Connection c = connection();
            connections.add(c);
            lent.add(c);
        }
        assertEquals(2 * LentConnections.BLOCK + 3, lent.size());
        for (int i = 0; i < connections.size(); i += 2) {
            lent.remove(connections.get(i));
        }
        assertEquals(LentConnections.BLOCK + 1, lent.size(), "every other one given back");
        lent.add(connection());   // takes a freed slot of the first block
        assertEquals(LentConnections.BLOCK + 2, lent.size());
    }

    @Test
    void handsEachLentConnectionToTheMonitorOnceAndAGiveBackAfterThatChangesNothing() {
        LentConnections lent = new LentConnections();
        List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < LentConnections.BLOCK + 5; i++) {
            Connection c = connection();
            connections.add(c);
            lent.add(c);
        }
        List<Connection> taken = new ArrayList<>();
        lent.takeAll(taken::add);
        assertEquals(connections.size(), taken.size());
        assertEquals(0, lent.size());
        lent.remove(connections.get(0));   // the read it served gives it back after the monitor aborted it
        lent.takeAll(taken::add);
        assertEquals(connections.size(), taken.size(), "nothing handed over twice");
    }
}
