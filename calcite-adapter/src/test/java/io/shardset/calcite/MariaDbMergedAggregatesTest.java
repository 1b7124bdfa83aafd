package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/** {@link MergedAggregatesTest} over MariaDB shards and an unsharded MariaDB database. */
@LongTest
class MariaDbMergedAggregatesTest extends MergedAggregatesTest {
  @Override Backend backend() {
    return Backend.MARIADB;
  }

  @Override boolean storesNan() {
    return false;
  }
}
