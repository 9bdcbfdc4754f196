package io.rwsplit.internal.replica;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A replica's memory of the physical connections whose server was asked when it started: each is asked on its first
 * use only, whichever connection was lent last, and the memory is bounded (beyond it, each is asked once more).
 */
class ReplicaNodeFirstUseTest {

    private static Connection connection() {
        return (Connection) Proxy.newProxyInstance(ReplicaNodeFirstUseTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> method.getName().equals("hashCode")
                        ? System.identityHashCode(proxy) : method.getName().equals("equals") ? proxy == args[0] : null);
    }

    private final ReplicaNode node = new ReplicaNode(0, "r1", 1, 0, null, false);

    @Test
    void eachPhysicalConnectionIsFirstUsedOnceWhicheverWasLentBefore() {
        Connection a = connection();
        Connection b = connection();
        assertTrue(node.firstUse(a));
        assertFalse(node.firstUse(a), "lent again at once");
        assertTrue(node.firstUse(b));
        assertFalse(node.firstUse(a), "lent again after another");
        assertFalse(node.firstUse(b));
        assertFalse(node.firstUse(b));
        assertTrue(node.firstUse(connection()), "a new one");
    }

    @Test
    void beyondItsBoundTheMemoryStartsAgain() {
        List<Connection> first = new ArrayList<>();
        for (int i = 0; i < 256; i++) {
            Connection c = connection();
            first.add(c);
            assertTrue(node.firstUse(c));
        }
        assertFalse(node.firstUse(first.get(0)));
        assertTrue(node.firstUse(connection()), "the 257th: the memory starts again with it");
        assertTrue(node.firstUse(first.get(1)), "asked once more");
    }
}
