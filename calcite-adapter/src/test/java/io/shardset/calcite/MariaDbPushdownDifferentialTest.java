package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/** {@link PushdownDifferentialTest} over MariaDB shards. */
@LongTest
class MariaDbPushdownDifferentialTest extends PushdownDifferentialTest {
  @Override Backend backend() {
    return Backend.MARIADB;
  }

  @Override String timestampType() {
    return "DATETIME(6)";
  }

  @Override boolean storesNan() {
    return false;
  }
}
