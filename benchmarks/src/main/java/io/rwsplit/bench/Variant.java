package io.rwsplit.bench;

/** The persistence stacks compared by the benchmarks. */
public enum Variant {
    /** (a) Plain Hibernate on one HikariCP pool: the baseline. */
    PLAIN,
    /** (b) hibernate-rwsplit: the same unit plus {@code hibernate.rwsplit.replicas}. */
    RWSPLIT,
    /** (c) Spring's {@code LazyConnectionDataSourceProxy} over the primary pool, with a read-only data source. */
    SPRING_LAZY,
    /** (d) ShardingSphere-JDBC read/write splitting, one write and one read data source. */
    SHARDINGSPHERE,
    /** (e) mysql-connector-j's {@code jdbc:mysql:replication://} URL on one HikariCP pool (cluster only). */
    MYSQL_REPLICATION
}
