package io.shardset.calcite.plan;

import io.shardset.testing.Backend;

/** {@link BindJoinTest} on MariaDB shards, which push the key list into the expression. */
class MariaDbBindJoinTest extends BindJoinTest {
  @Override Backend backend() {
    return Backend.MARIADB;
  }

  /** Its session id, which an XA branch's id carries. */
  @Override int transactionRowsPerShard() {
    return 1;
  }

  @Override String analyze() {
    return "ANALYZE TABLE ITEMS, SALES";
  }
}
