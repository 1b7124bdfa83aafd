package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Base of tests that query the loaded {@link SalesData} over four shards. The shards are H2;
 * a subclass that overrides {@link #backend()} runs the same tests over other databases.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SalesDataTestBase {
  ShardFixture fixture;
  Connection connection;

  /** The databases the shards and the oracle live on. */
  Backend backend() {
    return Backend.H2;
  }

  @BeforeAll void setUpSalesData() throws SQLException {
    fixture = SalesData.fixture(backend());
    connection = ShardFixture.connect(SalesData.model(fixture));
    SalesData.load(fixture, connection);
  }

  @AfterAll void tearDownSalesData() throws SQLException {
    if (connection != null) {
      connection.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }
}
