package io.rwsplit.internal.hibernate;

import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.resource.transaction.spi.TransactionCoordinatorBuilder;

/**
 * Where each session's {@link RwSplitSession} lives, which depends on the Hibernate release on the class path:
 * <ul>
 *   <li>7.4 and later: a session extension ({@code org.hibernate.engine.extension.spi.Extension}), created by
 *       {@link RwSplitExtensionIntegration} for every new session;</li>
 *   <li>7.2 and 7.3 (no session extensions): created by {@link SessionTrackingCoordinatorBuilder} in every
 *       session's constructor and kept by it until the session ends.</li>
 * </ul>
 * Either way the same {@link SessionAttacher} creates it and registers it as the session's event listener.
 * The choice is made once, from the class path; the 7.4-only types are touched only when it says so.
 */
public final class RwSplitSessions {

    private static final String EXTENSION_TYPE = "org.hibernate.engine.extension.spi.Extension";

    /** Whether the running Hibernate has session extensions (7.4 and later). */
    private static final boolean EXTENSIONS = present(EXTENSION_TYPE);

    private RwSplitSessions() {
    }

    /** Whether the running Hibernate offers session extensions, so that {@link RwSplitExtensionIntegration} is used. */
    public static boolean sessionExtensions() {
        return EXTENSIONS;
    }

    /** The session's routing part, or {@code null} when its factory does not route. */
    public static RwSplitSession find(SharedSessionContractImplementor session) {
        if (EXTENSIONS) {
            return ExtensionLookup.find(session);
        }
        return session.getFactory().getServiceRegistry().getService(TransactionCoordinatorBuilder.class)
                instanceof SessionTrackingCoordinatorBuilder tracking ? tracking.find(session) : null;
    }

    private static boolean present(String type) {
        try {
            Class.forName(type, false, SharedSessionContractImplementor.class.getClassLoader());
            return true;
        }
        catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
