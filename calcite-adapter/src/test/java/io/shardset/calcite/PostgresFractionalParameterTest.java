package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link FractionalParameterTest} on Postgres shards, against an unsharded Postgres database. */
class PostgresFractionalParameterTest extends FractionalParameterTest {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }
}
