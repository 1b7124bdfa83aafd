/** Writing rows to the shards their table's routing assigns them to. */
package io.shardset.load;
