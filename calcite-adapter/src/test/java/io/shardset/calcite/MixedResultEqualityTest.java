package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/**
 * {@link ResultEqualityTest} over two H2 and two PostgreSQL shards in one model, against an
 * unsharded H2 database.
 */
@LongTest
class MixedResultEqualityTest extends ResultEqualityTest {
  @Override Backend backend() {
    return Backend.MIXED;
  }
}
