package io.rwsplit.quarkus;

import java.util.HashMap;
import java.util.Map;

import jakarta.transaction.TransactionSynchronizationRegistry;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.arc.Arc;
import io.quarkus.hibernate.orm.runtime.integration.HibernateOrmIntegrationRuntimeInitListener;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.Recorder;
import io.rwsplit.RwSplitSettings;

/** Runs at run-time init, before Quarkus starts the persistence units. */
@Recorder
public class RwSplitRecorder {

    private final RuntimeValue<RwSplitRuntimeConfig> config;

    public RwSplitRecorder(RuntimeValue<RwSplitRuntimeConfig> config) {
        this.config = config;
    }

    /**
     * The listener of the default persistence unit on the default datasource: the core's settings from
     * {@code quarkus.rwsplit.*}, and Quarkus's JTA {@link TransactionSynchronizationRegistry} as the transaction
     * status. Quarkus runs every Hibernate ORM transaction under JTA with
     * {@code hibernate.connection.provider_disables_autocommit=true}, so no {@code setAutoCommit(false)} marks a
     * transaction: the registry is how routing keeps every JTA transaction on the primary (unless it was begun under
     * replica intent). Never guessed from the statements.
     */
    public HibernateOrmIntegrationRuntimeInitListener defaultUnitListener() {
        Config mp = ConfigProvider.getConfig();
        Map<String, Object> settings = new HashMap<>(QuarkusSettings.of(config.getValue(),
                mp.getOptionalValue("quarkus.datasource.username", String.class),
                mp.getOptionalValue("quarkus.datasource.password", String.class)));
        if (!settings.isEmpty()) {
            settings.put(RwSplitSettings.TRANSACTION_STATUS,
                    Arc.container().instance(TransactionSynchronizationRegistry.class).get());
            // @ReadReplica / @UsePrimary / @ReadConsistency on CDI beans (the interceptors of this extension)
            settings.put(RwSplitSettings.INTENT_SOURCE, new ArcIntentSource());
            // quarkus.rwsplit.web.*: the cookie's key as token_secret, and the Quarkus REST request scope (after the annotations)
            WebSettings.addTo(settings);
        }
        return new RwSplitInitListener(settings);
    }
}
