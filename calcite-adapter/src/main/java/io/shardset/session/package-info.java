/**
 * Client sessions: one {@link io.shardset.session.ShardSession} per client connection,
 * whatever protocol it came in by (the embedded driver, a server's remote session), holding
 * its autocommit mode, read-only flag, isolation level, open transaction, savepoints and
 * pending batch. Statements ask their session which transaction they write in and through
 * which connections they read. Above execution and transactions; no Calcite, no tables.
 */
package io.shardset.session;
