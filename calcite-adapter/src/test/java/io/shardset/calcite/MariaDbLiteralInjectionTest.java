package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link LiteralInjectionTest} over MariaDB shards, against an unsharded MariaDB database. */
class MariaDbLiteralInjectionTest extends LiteralInjectionTest {
  @Override Backend backend() {
    return Backend.MARIADB;
  }
}
