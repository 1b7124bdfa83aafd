package io.shardset.calcite;

import io.shardset.testing.Backend;

/**
 * {@link ResultEqualityTest} over four PostgreSQL shards, against an unsharded PostgreSQL database.
 */
class PostgresResultEqualityTest extends ResultEqualityTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
