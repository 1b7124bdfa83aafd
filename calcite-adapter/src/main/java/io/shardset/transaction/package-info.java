/**
 * Transactions over a model's shards: a {@link io.shardset.transaction.ShardTransaction}
 * enlists each shard it writes to, commits locally when it wrote to one shard and with
 * two-phase commit when it wrote to several; a {@link
 * io.shardset.transaction.TransactionCoordinator} begins them and recovers those a failure
 * left in doubt. Above the execution layer's endpoints; no Calcite, no routing.
 */
package io.shardset.transaction;
