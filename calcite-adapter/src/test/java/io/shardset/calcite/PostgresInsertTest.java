package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link InsertTestBase} on four shards of PostgreSQL. */
class PostgresInsertTest extends InsertTestBase {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
