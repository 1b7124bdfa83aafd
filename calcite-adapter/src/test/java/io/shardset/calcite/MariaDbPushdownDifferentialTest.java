package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link PushdownDifferentialTest} over MariaDB shards. */
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
