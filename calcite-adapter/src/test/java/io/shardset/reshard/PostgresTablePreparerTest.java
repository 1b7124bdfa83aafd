package io.shardset.reshard;

import io.shardset.testing.Backend;

/** Preparing a new PostgreSQL shard from PostgreSQL shards. */
class PostgresTablePreparerTest extends TablePreparerTestBase {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }

  @Override String ordersDdl() {
    return "CREATE TABLE ORDERS (ID BIGINT NOT NULL, NAME VARCHAR(40) NOT NULL, CODE CHAR(3),"
        + " AMOUNT NUMERIC(12, 2), BIG NUMERIC, RATE DOUBLE PRECISION, RATIO REAL,"
        + " ACTIVE BOOLEAN, SHIP_DAY DATE, CREATED TIMESTAMP(3), AT_TIME TIME,"
        + " ZONED TIMESTAMP(2) WITH TIME ZONE, NOTE TEXT, SMALL SMALLINT, UNBOUNDED VARCHAR,"
        + " BYTES BYTEA, PRIMARY KEY (ID))";
  }
}
