package io.shardset.tpch;

import io.shardset.testing.Backend;
import io.shardset.testing.LongTest;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The 22 TPC-H queries through ShardSet over PostgreSQL shards that ANALYZE has seen, so that
 * the planner orders and costs their joins by the shards' column statistics, return the rows
 * of one unsharded PostgreSQL database holding the same data. (At this scale the statistics
 * change no join order that matters: joining customers with suppliers on their nation first,
 * which TPC-H Q05 must not do at scale factor 1, makes 1,200 rows here.)
 */
@LongTest
class PostgresTpchQueryTest {
  private static ShardFixture fixture;
  private static Connection connection;

  @BeforeAll static void load() throws SQLException {
    fixture = ShardFixture.create(Backend.POSTGRES, TpchLayout.SHARDS, TpchDataSet.ddl());
    connection = ShardFixture.connect(fixture.model(TpchLayout.TABLES));
    TpchDataSet.load(fixture, connection);
    fixture.shards().executeOnAll("ANALYZE");
  }

  @AfterAll static void close() throws SQLException {
    if (connection != null) {
      connection.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.shardset.tpch.TpchQueryTest#queries")
  void sameRowsAsUnsharded(TpchQuery query) throws SQLException {
    TpchComparison.assertSameRows(query, fixture.oracle(), connection);
  }
}
