/** A federating Calcite's JDBC schema over a ShardSet server that sends it window functions. */
package io.shardset.calcite.federation;
