package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link UpdateDeleteTestBase} on four shards of MariaDB. */
class MariaDbUpdateDeleteTest extends UpdateDeleteTestBase {
  @Override Backend backend() {
    return Backend.MARIADB;
  }

  @Override String timestampType() {
    return "DATETIME(3)";
  }
}
