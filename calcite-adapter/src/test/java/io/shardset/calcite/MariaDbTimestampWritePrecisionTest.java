package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link TimestampWritePrecisionTest} over MariaDB shards and an unsharded MariaDB database. */
class MariaDbTimestampWritePrecisionTest extends TimestampWritePrecisionTest {
  @Override Backend backend() {
    return Backend.MARIADB;
  }

  @Override String timestampType() {
    return "DATETIME(6)";
  }
}
