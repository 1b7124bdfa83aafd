package io.shardset.testing;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.execution.ScanOptions;
import io.shardset.execution.ScanServices;
import io.shardset.execution.ShardPools;

/**
 * The pools tests open on shards outside any model: held open by the process's runtime, like
 * the pools of schemas built outside a connection, until the runtime closes; and the threads
 * of that runtime that tests' scans run on.
 */
public final class TestPools {
  private TestPools() {
  }

  /** The pools of the process's runtime that belong to no model. */
  public static ShardPools pools() {
    return ShardSetRuntime.get().execution().pin(TestPools.class).pools();
  }

  /** The scan threads of the process's runtime. */
  public static ScanServices services() {
    return ShardSetRuntime.get().execution().scanServices();
  }

  /** {@link ScanOptions#defaults} of a scan run on {@link #services()}. */
  public static ScanOptions scanOptions(int targetShards) {
    return ScanOptions.defaults(targetShards, services());
  }
}
