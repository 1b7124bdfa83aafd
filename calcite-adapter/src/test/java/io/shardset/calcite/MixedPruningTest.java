package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/**
 * {@link PruningTest} over two H2 and two PostgreSQL shards in one model, against an unsharded H2
 * database.
 */
@LongTest
class MixedPruningTest extends PruningTest {
  @Override Backend backend() {
    return Backend.MIXED;
  }
}
