package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link PushdownDifferentialTest} over PostgreSQL shards. */
class PostgresPushdownDifferentialTest extends PushdownDifferentialTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
