package org.apache.calcite.jdbc;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.DataContext;
import org.apache.calcite.runtime.Hook;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import static java.util.Objects.requireNonNull;

/**
 * A {@code jdbc:shardset:} connection's execution context gives every variable and parameter
 * as Calcite's own context does, on the same clock: compared variable by variable, and through
 * the SQL functions that read them against a plain {@code jdbc:calcite:} connection.
 */
class ShardSetDataContextTest {
  /** 2024-03-31 01:30 UTC: New York is in summer time, Berlin changes to it this night. */
  private static final long NOW = 1_711_848_600_000L;

  private ShardFixture fixture;

  @BeforeEach void createShards() {
    fixture = ShardFixture.h2(2, "CREATE TABLE T (K INT PRIMARY KEY)");
  }

  @AfterEach void closeShards() throws SQLException {
    fixture.close();
  }

  @Test void everyVariableAndParameterIsCalcites() throws SQLException {
    try (Connection c = open(ShardSetDriver.CONNECT_STRING_PREFIX);
         Hook.Closeable clock = Hook.CURRENT_TIME.addThread(ShardSetDataContextTest::setClock)) {
      final CalciteConnectionImpl connection = c.unwrap(CalciteConnectionImpl.class);
      final Map<String, Object> parameters = new HashMap<>();
      parameters.put("?0", 42);
      parameters.put("?1", null);
      final CalciteSchema root = connection.getRootSchema().unwrap(CalciteSchema.class);
      final DataContext ours = connection.createDataContext(parameters, root);
      final DataContext calcites =
          new CalciteConnectionImpl.DataContextImpl(connection, parameters, root);
      for (DataContext.Variable variable : DataContext.Variable.values()) {
        if (variable == DataContext.Variable.SQL_ADVISOR) {
          continue;
        }
        final Object expected = calcites.get(variable.camelName);
        final Object actual = ours.get(variable.camelName);
        assertEquals(expected, actual, variable.camelName);
      }
      assertEquals(42, ours.get("?0"));
      assertNull(ours.get("?1"));
      assertNull(ours.get("?2"));
      assertSame(root, requireNonNull(ours.getRootSchema()).unwrap(CalciteSchema.class));
      assertSame(calcites.getTypeFactory(), ours.getTypeFactory());
      assertSame(calcites.getQueryProvider(), ours.getQueryProvider());
    }
  }

  @Test void timeFunctionsAnswerAsCalcitesDriver() throws SQLException {
    final String sql = "SELECT CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME,"
        + " LOCALTIME, USER, CURRENT_USER, SYSTEM_USER, K FROM T WHERE K = 1";
    fixture.shards().execute(fixture.shards().names().get(0), "INSERT INTO T VALUES (1)");
    fixture.shards().execute(fixture.shards().names().get(1), "INSERT INTO T VALUES (1)");
    try (Hook.Closeable clock = Hook.CURRENT_TIME.addThread(ShardSetDataContextTest::setClock)) {
      assertEquals(rows("jdbc:calcite:", sql), rows(ShardSetDriver.CONNECT_STRING_PREFIX, sql));
    }
  }

  private List<String> rows(String url, String sql) throws SQLException {
    try (Connection c = open(url); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery(sql)) {
      final ResultSetMetaData meta = rs.getMetaData();
      final List<String> rows = new ArrayList<>();
      while (rs.next()) {
        final StringBuilder row = new StringBuilder();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          row.append(meta.getColumnLabel(i)).append('=').append(rs.getString(i)).append(' ');
        }
        rows.add(row.toString());
      }
      return rows;
    }
  }

  /** A connection in New York's time zone and a German locale. */
  private Connection open(String url) throws SQLException {
    final Properties info = Connector.info(
        fixture.model("\"tables\": [{\"name\": \"T\", \"method\": \"duplicated\"}]"));
    info.setProperty("timeZone", "America/New_York");
    info.setProperty("locale", "de_DE");
    return DriverManager.getConnection(url, info);
  }

  private static void setClock(Object holder) {
    @SuppressWarnings("unchecked")
    final org.apache.calcite.util.Holder<Long> time =
        (org.apache.calcite.util.Holder<Long>) holder;
    time.set(NOW);
  }
}
