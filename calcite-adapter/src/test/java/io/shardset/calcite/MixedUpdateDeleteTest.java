package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link UpdateDeleteTestBase} on four shards of H2, PostgreSQL and MariaDB. */
class MixedUpdateDeleteTest extends UpdateDeleteTestBase {
  @Override Backend backend() {
    return Backend.MIXED_WITH_MARIADB;
  }
}
