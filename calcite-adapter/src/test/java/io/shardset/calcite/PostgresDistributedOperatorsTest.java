package io.shardset.calcite;

import io.shardset.testing.Backend;

/**
 * {@link DistributedOperatorsTest} over four PostgreSQL shards, against an unsharded PostgreSQL
 * database.
 */
class PostgresDistributedOperatorsTest extends DistributedOperatorsTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
