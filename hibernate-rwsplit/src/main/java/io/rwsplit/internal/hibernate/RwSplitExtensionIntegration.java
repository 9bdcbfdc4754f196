package io.rwsplit.internal.hibernate;

import org.hibernate.engine.extension.spi.ExtensionIntegration;
import org.hibernate.engine.extension.spi.ExtensionIntegrationContext;

/**
 * Hibernate 7.4 and later: attaches a {@link RwSplitSession} to every session of a factory whose connections we
 * route, as a session extension; attaches nothing (a {@code null} extension) elsewhere. Found through
 * {@code META-INF/services}, which earlier releases never read for this type.
 */
public final class RwSplitExtensionIntegration implements ExtensionIntegration<ExtendedRwSplitSession> {

    private final SessionAttacher attacher = new SessionAttacher();

    @Override
    public Class<ExtendedRwSplitSession> getExtensionType() {
        return ExtendedRwSplitSession.class;
    }

    @Override
    public ExtendedRwSplitSession createExtension(ExtensionIntegrationContext context) {
        return attacher.attach(context.getSession(), ExtendedRwSplitSession::new);
    }
}
