package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link UpdateDeleteTestBase} on four H2 shards. */
class UpdateDeleteTest extends UpdateDeleteTestBase {
  @Override Backend backend() {
    return Backend.H2;
  }
}
