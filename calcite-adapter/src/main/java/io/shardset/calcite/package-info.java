/**
 * Calcite schema factory, schema and table that present a set of JDBC shards as one logical
 * schema.
 */
package io.shardset.calcite;
