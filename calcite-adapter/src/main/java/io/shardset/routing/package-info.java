/**
 * Where a row of a sharded table lives, and which shards can hold rows matching a predicate on
 * its shard key: canonical key bytes and CRC-32 hashing, chunk placement, hash, range and list
 * routers, and the key-value domains and conditions that pruning evaluates against them.
 *
 * <p>This package is plain Java on purpose: it follows the routing contract of the model
 * specification byte for byte, so external loaders can reproduce placement without Calcite.
 */
package io.shardset.routing;
