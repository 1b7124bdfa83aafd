/**
 * Benchmarks of ShardSet against one unsharded database (L), hand-routed JDBC (D) and
 * Calcite's own JDBC adapter with a UNION ALL view (N), over the same data and shard placement.
 *
 * <p>The harness is plain Java, not JMH. JMH forks a fresh JVM per benchmark, so each system
 * would be measured in its own JVM at its own time, and machine noise (other builds on a
 * two-core machine) would land on one system and not the others. Here every system lives in
 * one JVM, opened once, and the systems of a workload take turns within each round, in an
 * order that rotates from round to round (A B, B A, ...): a noisy second hits all of them
 * alike. Each workload first runs warm-up rounds (JIT, H2 page cache, Calcite's code
 * generation) that are not recorded, then measured rounds; every operation's latency is kept,
 * and the report gives the median and 99th percentile of those latencies and operations per
 * second over the measured time. Before measuring, the systems' answers to the workload are
 * compared, so that a system that returns less cannot look faster.
 */
package io.shardset.bench;
