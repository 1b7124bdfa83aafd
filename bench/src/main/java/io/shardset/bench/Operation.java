package io.shardset.bench;

/** One timed unit of a workload on one system, such as one query executed and fully read. */
@FunctionalInterface
public interface Operation {
  /**
   * Runs the operation for the {@code iteration}-th time (workloads pick their keys by it)
   * and returns a checksum of what it read, which the harness compares across systems.
   */
  long run(int iteration) throws Exception;
}
