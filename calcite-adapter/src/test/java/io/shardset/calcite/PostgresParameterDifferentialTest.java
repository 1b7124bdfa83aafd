package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/**
 * {@link ParameterDifferentialTest} over four PostgreSQL shards, against an unsharded
 * PostgreSQL database, with fewer statements.
 */
@LongTest
class PostgresParameterDifferentialTest extends ParameterDifferentialTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }

  @Override int defaultStatements() {
    return 320;
  }
}
