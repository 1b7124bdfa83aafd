package io.shardset.testing;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.execution.ShardPools;

/**
 * The pools tests open on shards outside any model: held open by the process's runtime, like
 * the pools of schemas built outside a connection, until the runtime closes.
 */
public final class TestPools {
  private TestPools() {
  }

  /** The pools of the process's runtime that belong to no model. */
  public static ShardPools pools() {
    return ShardSetRuntime.get().execution().pin(TestPools.class).pools();
  }
}
