package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.QueryAssert;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

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

  /**
   * The {@code sql} part of an EXPLAIN line for the backend: H2 shards receive
   * {@code h2Sql}, PostgreSQL shards {@code postgresSql} (lower-case physical names, and no
   * NULLS FIRST/LAST where its default placement is already Calcite's), MariaDB shards
   * {@code h2Sql} quoted with backticks.
   */
  String explainSql(String h2Sql, String postgresSql) {
    return explainSql(h2Sql, postgresSql, h2Sql.replace('"', '`'));
  }

  /** As {@link #explainSql(String, String)}, with the MariaDB text given. */
  String explainSql(String h2Sql, String postgresSql, String mariaDbSql) {
    switch (backend()) {
    case H2:
      return "sql=[" + h2Sql + "]";
    case POSTGRES:
      return "sql=[" + postgresSql + "]";
    case MIXED:
      return "sql[s0, s1]=[" + h2Sql + "], sql[s2, s3]=[" + postgresSql + "]";
    default:
      return "sql[s0, s1]=[" + h2Sql + "], sql[s2]=[" + postgresSql + "], sql[s3]=["
          + mariaDbSql + "]";
    }
  }

  @BeforeAll void setUpSalesData() throws SQLException {
    fixture = SalesData.fixture(backend());
    final String model = SalesData.model(fixture);
    try (Connection loading = ShardFixture.connect(model)) {
      SalesData.load(fixture, loading);
    }
    connection = open(model);
  }

  /** Opens the connection the tests query through: in-process by default; a subclass may
   * reach the same model another way (through a server, say). */
  Connection open(String model) throws SQLException {
    return ShardFixture.connect(model);
  }

  /** A fluent assertion on a query through the connection the tests query through. */
  QueryAssert sql(String sql) {
    return fixture.sql(connection, sql);
  }

  /** The rows of a query through ShardSet, each as a canonical string. */
  List<String> rows(String sql) throws SQLException {
    return ShardFixture.rows(connection, sql);
  }

  /** Runs a statement to the end and returns the shards that received a query. */
  Set<String> reached(PreparedStatement p) throws SQLException {
    return fixture.reached(p);
  }

  /** The rows in sorted order, for comparing results whose order SQL leaves open. */
  static List<String> sorted(List<String> rows) {
    return ShardFixture.sorted(rows);
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
