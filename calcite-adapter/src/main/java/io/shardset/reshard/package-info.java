/**
 * Resharding: plans that move whole hash ranges between shards, and the tool that moves their
 * rows online and resumably (see the README's "Resharding" section).
 */
package io.shardset.reshard;
