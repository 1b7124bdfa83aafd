package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link InsertTestBase} on four shards of H2, PostgreSQL and MariaDB. */
class MixedInsertTest extends InsertTestBase {
  @Override Backend backend() {
    return Backend.MIXED_WITH_MARIADB;
  }
}
