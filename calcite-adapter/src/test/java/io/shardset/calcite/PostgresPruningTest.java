package io.shardset.calcite;

import io.shardset.testing.Backend;

/**
 * {@link PruningTest} over four PostgreSQL shards, against an unsharded PostgreSQL database.
 */
class PostgresPruningTest extends PruningTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
