package io.shardset.calcite;

import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.sql.Connection;
import java.sql.SQLException;

/** Base of tests that query the loaded {@link SalesData} over four shards. */
abstract class SalesDataTestBase {
  static ShardFixture fixture;
  static Connection connection;

  @BeforeAll static void setUpSalesData() throws SQLException {
    fixture = SalesData.fixture();
    connection = ShardFixture.connect(SalesData.model(fixture));
    SalesData.load(fixture, connection);
  }

  @AfterAll static void tearDownSalesData() throws SQLException {
    connection.close();
    fixture.close();
  }
}
