/**
 * Loading CSV files into sharded tables: typed values from text fields, per-dialect upserts,
 * bad-row reports and progress.
 */
package io.shardset.cli.load;
