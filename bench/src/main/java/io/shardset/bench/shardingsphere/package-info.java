/**
 * System S of the benchmark: Apache ShardingSphere-JDBC over the same shards, with a sharding
 * algorithm that places rows exactly as ShardSet's routing contract does, so that S reads the
 * data where ShardSet's loader put it.
 */
package io.shardset.bench.shardingsphere;
