package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link InsertTestBase} on four shards of MariaDB. */
class MariaDbInsertTest extends InsertTestBase {
  @Override Backend backend() {
    return Backend.MARIADB;
  }

  @Override String timestampType() {
    return "DATETIME(3)";
  }
}
