package io.shardset.calcite;

import io.shardset.testing.Backend;

/**
 * {@link ResultEqualityTest} over two H2 and two PostgreSQL shards in one model, against an
 * unsharded H2 database.
 */
class MixedResultEqualityTest extends ResultEqualityTest {
  @Override Backend backend() {
    return Backend.MIXED;
  }
}
