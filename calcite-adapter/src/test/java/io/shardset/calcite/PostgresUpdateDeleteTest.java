package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link UpdateDeleteTestBase} on four shards of PostgreSQL. */
class PostgresUpdateDeleteTest extends UpdateDeleteTestBase {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
