package io.rwsplit.internal.route;

import java.util.List;

/**
 * Which database's lexical rules the SQL of a router follows, as its replicas' URLs say: MariaDB and MySQL
 * ({@code #} comments, backslash escapes unless {@code NO_BACKSLASH_ESCAPES}), PostgreSQL ({@code #} operators,
 * standard strings unless {@code standard_conforming_strings=off}, {@code E'...'}, dollar quotes, nested comments),
 * or either when the replicas are given as {@code DataSource}s or mixed. {@link SqlClassifier#classify(String, Lexing)}
 * reads a statement under every reading its database's session settings allow and keeps the one that sends it to the
 * primary.
 */
public enum Lexing {
    MYSQL, POSTGRESQL, ANY;

    /** The lexing of replicas with these JDBC URLs (null for a {@code DataSource}). */
    public static Lexing of(List<String> replicaUrls) {
        Lexing found = null;
        for (String url : replicaUrls) {
            Lexing one = url == null ? ANY
                    : url.startsWith("jdbc:postgresql:") ? POSTGRESQL
                    : url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:") ? MYSQL : ANY;
            if (found != null && found != one) {
                return ANY;
            }
            found = one;
        }
        return found == null ? ANY : found;
    }
}
