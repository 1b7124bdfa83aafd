package io.shardset.calcite;

import io.shardset.testing.Backend;

/**
 * {@link SubpartitionTest} over four PostgreSQL shards, against an unsharded PostgreSQL database.
 */
class PostgresSubpartitionTest extends SubpartitionTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
