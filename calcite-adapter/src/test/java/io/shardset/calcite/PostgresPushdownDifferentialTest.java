package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/** {@link PushdownDifferentialTest} over PostgreSQL shards. */
@LongTest
class PostgresPushdownDifferentialTest extends PushdownDifferentialTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
