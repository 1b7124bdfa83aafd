package io.shardset.calcite;

import io.shardset.testing.Backend;

/**
 * {@link TimestampWritePrecisionTest} over PostgreSQL shards and an unsharded PostgreSQL
 * database.
 */
class PostgresTimestampWritePrecisionTest extends TimestampWritePrecisionTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
