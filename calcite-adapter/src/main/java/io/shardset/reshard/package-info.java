/**
 * Resharding: plans that move whole hash ranges between shards, and the tool that moves their
 * rows online and resumably (see docs/resharding.md).
 */
package io.shardset.reshard;
