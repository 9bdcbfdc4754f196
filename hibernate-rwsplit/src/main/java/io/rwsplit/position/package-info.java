/**
 * Replication positions and consistency tokens, the values every layer above passes around: MariaDB GTID positions,
 * MySQL GTID sets, PostgreSQL WAL positions (LSNs), and the token of a committed write (its position and commit
 * time). No I/O, no state: the bottom of the package map, below health, consistency and routing.
 */
package io.rwsplit.position;
