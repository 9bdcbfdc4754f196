package io.rwsplit.cdi;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DefinitionException;

import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

import io.rwsplit.ReadReplica;
import io.rwsplit.UsePrimary;
import io.rwsplit.ReadConsistency;

/** Mistakes in the annotations stop the deployment with a message naming the method. */
class DeploymentValidationTest {

    @ApplicationScoped
    public static class Contradictory {
        @ReadReplica
        @UsePrimary
        public String both() {
            return "";
        }
    }

    @ApplicationScoped
    public static class UnknownLevel {
        @ReadConsistency("sometimes")
        public String read() {
            return "";
        }
    }

    @ApplicationScoped
    public static class Fine {
        @ReadReplica(consistency = "bounded_staleness:PT2S")
        public String read() {
            return "";
        }
    }

    private static Exception deploy(Class<?> bean) {
        Weld weld = new Weld().disableDiscovery().addExtension(new RwSplitExtension()).addBeanClass(bean);
        return assertThrows(DefinitionException.class, () -> weld.initialize().close());
    }

    @Test
    void readReplicaAndUsePrimaryOnOneMethodFailDeployment() {
        Exception e = deploy(Contradictory.class);
        assertTrue(e.getMessage().contains("@ReadReplica and @UsePrimary both on") && e.getMessage().contains("both()"),
                e.getMessage());
    }

    @Test
    void unknownConsistencyLevelFailsDeployment() {
        Exception e = deploy(UnknownLevel.class);
        assertTrue(e.getMessage().contains("'sometimes'"), e.getMessage());
    }

    @Test
    void validAnnotationsDeploy() {
        try (WeldContainer container = new Weld().disableDiscovery().addExtension(new RwSplitExtension())
                .addBeanClass(Fine.class).initialize()) {
            assertTrue(container.select(Fine.class).isResolvable());
        }
    }
}
