package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link MergeTestBase} on four shards of MariaDB, whose ON DUPLICATE KEY UPDATE counts an
 * updated row twice and an unchanged one not at all: ShardSet counts each source row once. */
class MariaDbMergeTest extends MergeTestBase {
  @Override Backend backend() {
    return Backend.MARIADB;
  }

  @Override String expectedForms() {
    return "INSERT ... ON DUPLICATE KEY UPDATE";
  }
}
