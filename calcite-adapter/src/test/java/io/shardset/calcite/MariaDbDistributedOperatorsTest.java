package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/**
 * {@link DistributedOperatorsTest} over H2, PostgreSQL and MariaDB shards in one model, against an unsharded
 * H2 database.
 */
@LongTest
class MariaDbDistributedOperatorsTest extends DistributedOperatorsTest {
  @Override Backend backend() {
    return Backend.MIXED_WITH_MARIADB;
  }
}
