package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link FractionalParameterTest} on MariaDB shards, against an unsharded MariaDB database. */
class MariaDbFractionalParameterTest extends FractionalParameterTest {
  @Override Backend backend() {
    return Backend.MARIADB;
  }
}
