package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link InsertTestBase} on four H2 shards. */
class InsertTest extends InsertTestBase {
  @Override Backend backend() {
    return Backend.H2;
  }
}
