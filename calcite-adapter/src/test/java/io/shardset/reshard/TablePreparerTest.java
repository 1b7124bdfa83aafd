package io.shardset.reshard;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.testing.Backend;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Preparing a new H2 shard from H2 shards, and refusing to between database products. */
class TablePreparerTest extends TablePreparerTestBase {
  @Override Backend backend() {
    return Backend.H2;
  }

  @Override String ordersDdl() {
    return "CREATE TABLE ORDERS (ID BIGINT NOT NULL, NAME VARCHAR(40) NOT NULL, CODE CHAR(3),"
        + " AMOUNT NUMERIC(12, 2), BIG DECIMAL(30, 10), RATE DOUBLE PRECISION, RATIO REAL,"
        + " ACTIVE BOOLEAN, SHIP_DAY DATE, CREATED TIMESTAMP(3), AT_TIME TIME,"
        + " ZONED TIMESTAMP(2) WITH TIME ZONE, NOTE VARCHAR, SMALL SMALLINT, TINY TINYINT,"
        + " BYTES VARBINARY(16), PRIMARY KEY (ID))";
  }

  @Test void refusesToCreateTablesBetweenProducts() throws SQLException {
    try (Backend.Databases mixed = Backend.MIXED.create("reshard_prep", 2)) {
      final ShardConnectionSettings h2 = mixed.shards().get(0);
      ReshardModels.execute(h2, "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY)");
      final String tables =
          ", \"tables\": [{\"name\": \"ORDERS\", \"method\": \"consistent-hash\","
              + " \"shardKey\": [\"ID\"]}]}";
      final IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> TablePreparer.prepare(
              ReshardModels.parse("{\"shards\": "
                  + ReshardModels.shardsJson(mixed.shards(), 1) + tables),
              ReshardModels.parse("{\"shards\": "
                  + ReshardModels.shardsJson(mixed.shards(), 2) + tables), "s1"));
      assertEquals("cannot create table 'ORDERS' on new shard 's1' (PostgreSQL) from shard"
          + " 's0' (H2): ShardSet copies table definitions only between databases of the same"
          + " product; create the table on shard 's1' with the columns and primary key it has"
          + " on shard 's0', then run again", e.getMessage());
    }
  }
}
