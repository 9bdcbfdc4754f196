package io.rwsplit.internal.hibernate;

import org.hibernate.engine.spi.SharedSessionContractImplementor;

/** Finds a session's {@link RwSplitSession} among its extensions (Hibernate 7.4 and later only). */
final class ExtensionLookup {

    private ExtensionLookup() {
    }

    static RwSplitSession find(SharedSessionContractImplementor session) {
        return session.getExtension(ExtendedRwSplitSession.class);
    }
}
