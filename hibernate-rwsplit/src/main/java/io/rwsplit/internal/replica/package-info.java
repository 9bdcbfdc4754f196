/**
 * The servers at run time: each replica ({@link io.rwsplit.internal.replica.ReplicaNode}: its pool, its counters), the set
 * routing chooses from ({@link io.rwsplit.internal.replica.ReplicaSet}: health snapshot, balancing), the primary's source and
 * circuit breaker, and the monitor that probes the replicas and keeps their health current. Above {@code health}
 * (the policies, probes and trackers it applies), below consistency and routing.
 */
package io.rwsplit.internal.replica;
