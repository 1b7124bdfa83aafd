package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;

/**
 * {@link JoinPushdownTest} over two H2 and two PostgreSQL shards in one model, against an unsharded
 * H2 database.
 */
@LongTest
class MixedJoinPushdownTest extends JoinPushdownTest {
  @Override Backend backend() {
    return Backend.MIXED;
  }
}
