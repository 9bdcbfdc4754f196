package io.rwsplit.internal.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rwsplit.Consistency;
import io.rwsplit.Intent;
import io.rwsplit.ReadConsistency;
import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;

/** The one resolver of the routing annotations, shared by the Spring and CDI modules. */
class RoutingAnnotationsTest {

    @ReadReplica
    interface Catalog {
        @UsePrimary
        void checkout();

        @ReadConsistency("bounded_staleness:500ms")
        void count();

        void search();
    }

    static class CatalogBean implements Catalog {
        @Override
        public void checkout() {
        }

        @Override
        public void count() {
        }

        @Override
        public void search() {
        }
    }

    static class Base {
        @UsePrimary
        public void save() {
        }
    }

    static class Derived extends Base {
        @Override
        public void save() {
        }
    }

    static class Disagreeing {
        @ReadReplica(consistency = "eventual")
        @ReadConsistency("strong")
        public void report() {
        }
    }

    private static RoutingFrame frame(Class<?> type, String method) throws NoSuchMethodException {
        return RoutingAnnotations.resolve(List.of(type), type.getMethod(method));
    }

    @Test
    void anImplementationFindsItsInterfacesAnnotationsAndAMethodAnnotationWinsOverTheType() throws Exception {
        assertEquals(Intent.PRIMARY, frame(CatalogBean.class, "checkout").intent());
        assertEquals(Intent.REPLICA, frame(CatalogBean.class, "search").intent());
        RoutingFrame count = frame(CatalogBean.class, "count");
        assertEquals(Intent.REPLICA, count.intent());
        assertEquals(Consistency.boundedStaleness(Duration.ofMillis(500)), count.consistency());
        assertNull(frame(CatalogBean.class, "search").consistency());
    }

    @Test
    void anOverridingMethodKeepsTheAnnotationOfTheMethodItOverrides() throws Exception {
        assertEquals(Intent.PRIMARY, frame(Derived.class, "save").intent());
    }

    @Test
    void twoLevelsAtOnePlaceFailNamingTheMethod() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RoutingAnnotations.validate(List.of(Disagreeing.class)));
        assertTrue(e.getMessage().contains("report()") && e.getMessage().contains("disagree"), e.getMessage());
    }

    @Test
    void anInnerFrameInheritsWhatItLeavesUnset() {
        RoutingFrame outer = new RoutingFrame(Intent.REPLICA, Consistency.eventual());
        assertEquals(new RoutingFrame(Intent.PRIMARY, Consistency.eventual()),
                new RoutingFrame(Intent.PRIMARY, null).inside(outer));
        assertTrue(new RoutingFrame(null, null).inside(outer) == outer);
    }
}
