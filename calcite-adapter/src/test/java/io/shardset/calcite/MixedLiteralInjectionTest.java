package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link LiteralInjectionTest} over H2, PostgreSQL and MariaDB shards in one model, against an unsharded H2 database. */
class MixedLiteralInjectionTest extends LiteralInjectionTest {
  @Override Backend backend() {
    return Backend.MIXED_WITH_MARIADB;
  }
}
