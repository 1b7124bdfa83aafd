package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/**
 * {@link ExistsDifferentialTest} over H2, PostgreSQL and MariaDB shards in one model, against
 * an unsharded H2 database.
 */
@LongTest
class MariaDbExistsDifferentialTest extends ExistsDifferentialTest {
  @Override Backend backend() {
    return Backend.MIXED_WITH_MARIADB;
  }
}
