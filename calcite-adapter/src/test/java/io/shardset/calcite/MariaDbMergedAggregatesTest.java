package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link MergedAggregatesTest} over MariaDB shards and an unsharded MariaDB database. */
class MariaDbMergedAggregatesTest extends MergedAggregatesTest {
  @Override Backend backend() {
    return Backend.MARIADB;
  }

  @Override boolean storesNan() {
    return false;
  }
}
