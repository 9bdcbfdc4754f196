/**
 * Read-your-writes consistency: exact replication positions ({@link io.rwsplit.consistency.GtidPosition})
 * and the portable {@link io.rwsplit.consistency.ConsistencyToken} that carries one between requests.
 */
package io.rwsplit.consistency;
