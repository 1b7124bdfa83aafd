package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link TimestampPrecisionTest} over MariaDB shards and an unsharded MariaDB database. */
class MariaDbTimestampPrecisionTest extends TimestampPrecisionTest {
  @Override Backend backend() {
    return Backend.MARIADB;
  }

  @Override String timestampType() {
    return "DATETIME(6)";
  }
}
