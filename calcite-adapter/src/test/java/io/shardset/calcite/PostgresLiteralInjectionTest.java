package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link LiteralInjectionTest} over PostgreSQL shards, against an unsharded PostgreSQL database. */
class PostgresLiteralInjectionTest extends LiteralInjectionTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
