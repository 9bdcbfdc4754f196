package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rwsplit.ReadReplica;
import io.rwsplit.Intent;
import io.rwsplit.UsePrimary;
import io.rwsplit.ReadConsistency;
import io.rwsplit.internal.route.RoutingFrame;
import io.rwsplit.internal.route.RoutingAnnotations;

class RoutingAnnotationsTest {

    @ReadReplica
    interface Reports {
        String total();

        @UsePrimary
        String fresh();

        @ReadConsistency("bounded_staleness:PT2S")
        String bounded();
    }

    static class ReportsImpl implements Reports {
        public String total() {
            return null;
        }

        public String fresh() {
            return null;
        }

        public String bounded() {
            return null;
        }
    }

    static class Contradiction {
        @ReadReplica
        @UsePrimary
        public void both() {
        }
    }

    static class BadLevel {
        @ReadConsistency("sometimes")
        public void level() {
        }
    }

    static class Plain {
        public void nothing() {
        }
    }

    private static RoutingFrame frame(List<Class<?>> types, Class<?> declaring, String name) throws NoSuchMethodException {
        return RoutingAnnotations.resolve(types, declaring.getMethod(name));
    }

    @Test
    void anInterfacesTypeAnnotationAppliesToItsMethodsAndAMethodAnnotationWins() throws Exception {
        List<Class<?>> proxy = List.of(Reports.class, Object.class);
        assertEquals(Intent.REPLICA, frame(proxy, Reports.class, "total").intent());
        assertEquals(Intent.PRIMARY, frame(proxy, Reports.class, "fresh").intent());
        RoutingFrame bounded = frame(proxy, Reports.class, "bounded");
        assertEquals(Intent.REPLICA, bounded.intent());
        assertEquals(io.rwsplit.Consistency.boundedStaleness(java.time.Duration.ofSeconds(2)), bounded.consistency());
    }

    @Test
    void anImplementationFindsTheAnnotationsOfItsInterface() throws Exception {
        List<Class<?>> bean = List.of(ReportsImpl.class);
        assertEquals(Intent.PRIMARY, frame(bean, ReportsImpl.class, "fresh").intent());
        assertEquals(Intent.REPLICA, frame(bean, ReportsImpl.class, "total").intent());
        assertTrue(RoutingAnnotations.annotated(bean));
    }

    @Test
    void contradictionsAndBadLevelsFailNamingTheMethod() {
        IllegalStateException both = assertThrows(IllegalStateException.class,
                () -> RoutingAnnotations.validate(List.of(Contradiction.class)));
        assertTrue(both.getMessage().contains("both()"), both.getMessage());
        IllegalStateException level = assertThrows(IllegalStateException.class,
                () -> RoutingAnnotations.validate(List.of(BadLevel.class)));
        assertTrue(level.getMessage().contains("level()") && level.getMessage().contains("sometimes"), level.getMessage());
    }

    @Test
    void anUnannotatedBeanIsLeftAlone() throws Exception {
        assertTrue(!RoutingAnnotations.annotated(List.of(Plain.class)));
        RoutingFrame frame = frame(List.of(Plain.class), Plain.class, "nothing");
        assertNull(frame.intent());
        assertTrue(frame.isEmpty());
    }
}
