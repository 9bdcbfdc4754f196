package io.rwsplit.internal.hibernate;

import java.util.Map;

import io.rwsplit.internal.config.RwSplitConfig;

/**
 * What replica pools built from URLs take from the primary so that replica sessions start like the primary's: the
 * init SQL of its pool ({@link PrimaryInitSql}) and the session properties of its JDBC URL
 * ({@link io.rwsplit.internal.config.UrlSessionProperties}).
 *
 * @param initSql the primary pool's init SQL, run by replica pools that configure none, or null
 * @param url     the primary's JDBC URL, or null when it is not known (a DataSource that is not HikariCP's)
 */
record PrimarySession(String initSql, String url) {

    /** Nothing to inherit. */
    static final PrimarySession NONE = new PrimarySession(null, null);

    /** What the unit's settings tell of the primary: its URL, or that of the HikariCP DataSource it is given. */
    static PrimarySession of(Map<String, Object> settings) {
        String url = RwSplitConfig.primaryUrl(settings);
        if (url == null) {
            url = PrimaryInitSql.dataSourceUrl(settings);
        }
        return new PrimarySession(PrimaryInitSql.of(settings), url);
    }
}
