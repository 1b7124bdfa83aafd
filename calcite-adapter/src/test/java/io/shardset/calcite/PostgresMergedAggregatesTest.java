package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link MergedAggregatesTest} over PostgreSQL shards and an unsharded PostgreSQL database. */
class PostgresMergedAggregatesTest extends MergedAggregatesTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
