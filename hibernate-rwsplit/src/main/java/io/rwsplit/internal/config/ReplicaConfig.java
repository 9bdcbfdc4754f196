package io.rwsplit.internal.config;

import javax.sql.DataSource;

/**
 * One replica as configured.
 *
 * @param name       unique name used in statistics, logs and metrics
 * @param url        JDBC URL, or {@code null} when {@code dataSource} is given
 * @param user       user, may be {@code null}
 * @param password   password, may be {@code null}
 * @param weight     weight for the weighted balancer, at least 1
 * @param tier       tier, at least 1; lower tiers are preferred
 * @param dataSource a data source supplied by the application, or {@code null}
 */
public record ReplicaConfig(String name, String url, String user, String password, int weight, int tier,
                            DataSource dataSource) {

    @Override
    public String toString() {
        return name + (url != null ? "(" + Secrets.scrub(url) + ")" : "(DataSource)");
    }
}
