package io.shardset.calcite.plan;

import io.shardset.testing.Backend;

/** {@link BindJoinTest} on PostgreSQL shards, which inline the key list's expression. */
class PostgresBindJoinTest extends BindJoinTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
