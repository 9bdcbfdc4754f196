package io.rwsplit.quarkus.it;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Read-your-writes (the extension's default, which application.properties replaces by eventual) with a shared cookie
 * key. Sessions without a named scope see only their own writes ({@code consistency_scope=session}), so the cookie is
 * the only thing that can send a GET to the primary: on H2 the replica never has a new row.
 */
public class RequestScopeProfile implements QuarkusTestProfile {

    static final String SECRET = "a-cookie-key-shared-by-every-instance-0123456789";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "quarkus.rwsplit.consistency", "read_your_writes",
                // time mode on H2: a write's scope reads from the primary for this long
                "quarkus.rwsplit.read-your-writes-window", "1M",
                "quarkus.hibernate-orm.unsupported-properties.\"hibernate.rwsplit.consistency_scope\"", "session",
                "quarkus.rwsplit.web.cookie.secret", SECRET);
    }
}
