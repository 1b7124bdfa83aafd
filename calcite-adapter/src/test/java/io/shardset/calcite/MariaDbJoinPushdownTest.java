package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/**
 * {@link JoinPushdownTest} over H2, PostgreSQL and MariaDB shards in one model, against an unsharded
 * H2 database.
 */
@LongTest
class MariaDbJoinPushdownTest extends JoinPushdownTest {
  @Override Backend backend() {
    return Backend.MIXED_WITH_MARIADB;
  }
}
