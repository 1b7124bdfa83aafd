package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link MergeTestBase} on four H2 shards. */
class MergeTest extends MergeTestBase {
  @Override Backend backend() {
    return Backend.H2;
  }

  @Override String expectedForms() {
    return "MERGE INTO ... USING (VALUES ...)";
  }
}
