/**
 * ShardSet's embedded JDBC driver ({@code jdbc:shardset:}): Calcite's driver whose statements
 * are prepared through the process's plan cache ({@link io.shardset.calcite.prepare}), with
 * ShardSet's sessions, generated keys, {@code java.time} values and SQLStates; and what the
 * remote driver shares with it (errors, version, null sorting, time parameters).
 */
package io.shardset.calcite.jdbc;
