package io.rwsplit.bench;

/**
 * The persistence stacks compared by the benchmarks: a connection path (plain pool, hibernate-rwsplit or a
 * peer) and the way the application runs its reads (see {@link #readOnlyTransactions}).
 */
public enum Variant {
    /** (a) Plain Hibernate on one HikariCP pool, reads outside a transaction: the baseline. */
    PLAIN("(a) plain Hibernate + HikariCP", false, false),
    /** (a') The same, every operation in a Spring transaction (reads read-only): the baseline of the Spring peers. */
    PLAIN_TX("(a') plain Hibernate, Spring transactions", true, false),
    /** (b) hibernate-rwsplit: the same unit plus {@code hibernate.rwsplit.replicas}, reads outside a transaction. */
    RWSPLIT("(b) hibernate-rwsplit", false, true),
    /** (b') hibernate-rwsplit, every operation in a Spring transaction (reads read-only). */
    RWSPLIT_TX("(b') hibernate-rwsplit, Spring transactions", true, true),
    /**
     * (c) Spring's {@code LazyConnectionDataSourceProxy} over the primary pool with a read-only data source (the
     * replica pool), reads in Spring read-only transactions.
     */
    SPRING_LAZY("(c) Spring LazyConnectionDataSourceProxy", true, true),
    /** (d) ShardingSphere-JDBC read/write splitting, one write and one read data source; reads outside a transaction. */
    SHARDINGSPHERE("(d) ShardingSphere-JDBC 5.5.2", false, true),
    /** (e) mysql-connector-j's {@code jdbc:mysql:replication://} URL on one HikariCP pool, reads in read-only transactions. */
    MYSQL_REPLICATION("(e) mysql-connector-j replication URL", true, true),
    /**
     * (f) The AWS Advanced JDBC Wrapper with its simple read/write splitting plugin ({@code srw}: a writer and a
     * reader endpoint, no Aurora topology) on one HikariCP pool, reads in read-only transactions.
     */
    AWS_SRW("(f) AWS JDBC Wrapper 4.3.0, srw plugin", true, true);

    private final String label;
    private final boolean readOnlyTransactions;
    private final boolean routesReads;

    Variant(String label, boolean readOnlyTransactions, boolean routesReads) {
        this.label = label;
        this.readOnlyTransactions = readOnlyTransactions;
        this.routesReads = routesReads;
    }

    /** The name of the variant in tables and charts. */
    public String label() {
        return label;
    }

    /**
     * Whether the application runs its operations in Spring transactions ({@code TransactionTemplate} over
     * {@code JpaTransactionManager}): reads read-only, which makes Spring call {@code Connection#setReadOnly(true)},
     * the only signal (c), (e) and (f) route by. Otherwise each operation opens its own {@code EntityManager},
     * reads outside a transaction and writes in a resource-local one.
     */
    public boolean readOnlyTransactions() {
        return readOnlyTransactions;
    }

    /** Whether this variant's reads must reach a replica; {@link RoutingProof} checks it before every measurement. */
    public boolean routesReads() {
        return routesReads;
    }
}
