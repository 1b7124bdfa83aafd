package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link TimestampPrecisionTest} over PostgreSQL shards and an unsharded PostgreSQL database. */
class PostgresTimestampPrecisionTest extends TimestampPrecisionTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
