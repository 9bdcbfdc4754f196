package io.rwsplit.internal.hibernate;


import org.hibernate.engine.extension.spi.Extension;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

import io.rwsplit.internal.route.Router;

/**
 * A {@link RwSplitSession} that Hibernate keeps as a session {@link Extension} (Hibernate 7.4 and later). Loaded
 * only where {@code Extension} exists: nothing outside {@link RwSplitExtensionIntegration} and
 * {@link ExtensionLookup} names it.
 */
final class ExtendedRwSplitSession extends RwSplitSession implements Extension {

    ExtendedRwSplitSession(SharedSessionContractImplementor session, Router router, boolean guardCache) {
        super(session, router, guardCache);
    }
}
