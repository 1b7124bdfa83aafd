/**
 * The relationships BI tools read from {@link java.sql.DatabaseMetaData}: the primary keys,
 * foreign keys and indexes of ShardSet's logical tables, as their shards declare them, and the
 * system tables ({@code "metadata"."PRIMARY_KEYS"} and the like) through which remote clients
 * read them.
 */
package io.shardset.calcite.relations;
