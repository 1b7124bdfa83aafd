package io.shardset.calcite;

import io.shardset.testing.Backend;

/**
 * {@link ExistsDifferentialTest} over four PostgreSQL shards, against an unsharded PostgreSQL
 * database.
 */
class PostgresExistsDifferentialTest extends ExistsDifferentialTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
