package io.shardset.calcite;

import io.shardset.testing.Backend;

/**
 * {@link JoinPushdownTest} over four PostgreSQL shards, against an unsharded PostgreSQL database.
 */
class PostgresJoinPushdownTest extends JoinPushdownTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
