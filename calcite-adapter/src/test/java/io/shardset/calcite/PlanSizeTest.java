package io.shardset.calcite;

import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The plan of a query has the same size over 4 shards as over 256: one scan node carries the
 * shard set, so planning does not grow with the number of shards.
 */
class PlanSizeTest {
  private static final Pattern SHARD_LIST = Pattern.compile("shards=\\[[^]]*]");
  private static final String DDL =
      "CREATE TABLE T (ID BIGINT PRIMARY KEY, NAME VARCHAR(20), AMOUNT DECIMAL(10, 2))";
  private static final String TABLES = "\"tables\": [{\"name\": \"T\","
      + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]";
  private static final String QUERY = "SELECT NAME, AMOUNT * 2 FROM T"
      + " WHERE NAME <> 'x' AND AMOUNT > 10 ORDER BY NAME";

  @Test void planSizeDoesNotDependOnShardCount() throws SQLException {
    final String small = plan(4);
    final String large = plan(256);
    assertEquals(1, count(small, "EnumerableShardScan"));
    assertEquals(1, count(large, "EnumerableShardScan"));
    assertEquals(small.lines().count(), large.lines().count());
    // Same plan, but for the shard count.
    assertEquals(SHARD_LIST.matcher(small).replaceAll(""),
        SHARD_LIST.matcher(large).replaceAll(""));
  }

  private static String plan(int shards) throws SQLException {
    try (ShardFixture fixture = ShardFixture.h2(shards, DDL);
         Connection connection = ShardFixture.connect(fixture.model(TABLES))) {
      return PlanTest.explain(connection, QUERY);
    }
  }

  private static int count(String text, String word) {
    return text.split(word, -1).length - 1;
  }
}
