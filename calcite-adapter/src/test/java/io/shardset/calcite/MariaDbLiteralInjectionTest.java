package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/** {@link LiteralInjectionTest} over MariaDB shards, against an unsharded MariaDB database. */
@LongTest
class MariaDbLiteralInjectionTest extends LiteralInjectionTest {
  @Override Backend backend() {
    return Backend.MARIADB;
  }
}
