/**
 * ShardSet's JDBC driver ({@code jdbc:shardset:}): Calcite's driver with a plan cache that
 * lets statements differing only in literals share one plan.
 */
package io.shardset.calcite.jdbc;
