/**
 * Read-your-writes consistency: exact replication positions ({@link io.rwsplit.position.GtidPosition})
 * and the portable {@link io.rwsplit.position.ConsistencyToken} that carries one between requests.
 */
package io.rwsplit.internal.consistency;
