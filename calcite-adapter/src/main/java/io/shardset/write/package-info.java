/**
 * Writes to logical tables: a statement's {@link io.shardset.write.TableWrite} on one table
 * pins the model version its transaction routes under, places each row with the topology's
 * {@link io.shardset.topology.TablePlacement} and hands out the transaction's shard
 * connections; {@link io.shardset.write.PhysicalBatch} sends one physical table's statements
 * in JDBC batches; {@link io.shardset.write.RowInserter} is INSERT on top of them. Values are
 * JDBC values already (the Calcite runtime converts its own). Errors are SQLExceptions whose
 * message names the table, shard, column or value, and whose SQLState says what kind of
 * failure it is ({@link io.shardset.write.WriteFailures}). Above topology and transaction;
 * no Calcite, no loader, no resharding.
 */
package io.shardset.write;
