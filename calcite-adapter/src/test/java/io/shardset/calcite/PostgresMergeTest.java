package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link MergeTestBase} on four shards of PostgreSQL. */
class PostgresMergeTest extends MergeTestBase {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }

  @Override String expectedForms() {
    return "INSERT ... ON CONFLICT DO UPDATE";
  }
}
