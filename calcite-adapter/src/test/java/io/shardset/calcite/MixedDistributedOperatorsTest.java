package io.shardset.calcite;

import io.shardset.testing.Backend;

/**
 * {@link DistributedOperatorsTest} over two H2 and two PostgreSQL shards in one model, against an
 * unsharded H2 database.
 */
class MixedDistributedOperatorsTest extends DistributedOperatorsTest {
  @Override Backend backend() {
    return Backend.MIXED;
  }
}
