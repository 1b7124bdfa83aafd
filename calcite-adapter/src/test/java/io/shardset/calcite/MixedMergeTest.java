package io.shardset.calcite;

import io.shardset.testing.Backend;

/** {@link MergeTestBase} on four shards of H2, PostgreSQL and MariaDB: each shard receives
 * its own database's upsert. */
class MixedMergeTest extends MergeTestBase {
  @Override Backend backend() {
    return Backend.MIXED_WITH_MARIADB;
  }

  @Override String expectedForms() {
    return "MERGE INTO ... USING (VALUES ...); INSERT ... ON CONFLICT DO UPDATE;"
        + " INSERT ... ON DUPLICATE KEY UPDATE";
  }
}
