package io.shardset.calcite;

import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * SQL as BI tools write it (quoted and qualified names, CAST, CASE, COALESCE, date
 * truncation and extraction, GROUP BY ordinals, ORDER BY aliases, LIMIT, result-metadata
 * probes) runs through the server and gives the rows the same query gives in-process.
 */
class RemoteBiQueriesTest extends SalesDataTestBase {
  private RemoteTestSupport remote;
  private Connection inProcess;

  @Override Connection open(String model) throws SQLException {
    remote = RemoteTestSupport.serve(model);
    final Properties info = new Properties();
    info.setProperty("model", "inline:" + model);
    info.setProperty("conformance", "LENIENT"); // what the server gives remote clients
    inProcess = DriverManager.getConnection("jdbc:calcite:", info);
    return remote.connect();
  }

  @AfterAll void stopServer() throws SQLException, IOException {
    connection.close();
    inProcess.close();
    remote.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT \"CUSTOMER_ID\", \"NAME\" FROM \"S\".\"CUSTOMERS\" WHERE \"CUSTOMER_ID\" = 42",
      "SELECT CAST(\"AMOUNT\" AS DOUBLE) AS \"A\" FROM \"ORDERS\" WHERE \"CUSTOMER_ID\" = 7",
      "SELECT CASE WHEN AMOUNT > 2500 THEN 'high' ELSE 'low' END AS BAND, COUNT(*) AS N"
          + " FROM ORDERS GROUP BY CASE WHEN AMOUNT > 2500 THEN 'high' ELSE 'low' END",
      "SELECT COALESCE(STATUS, 'unknown') AS S, COUNT(*) FROM ORDERS"
          + " GROUP BY COALESCE(STATUS, 'unknown')",
      "SELECT EXTRACT(YEAR FROM ORDER_DATE) AS Y, SUM(AMOUNT) FROM ORDERS"
          + " GROUP BY EXTRACT(YEAR FROM ORDER_DATE)",
      "SELECT FLOOR(ORDER_DATE TO MONTH) AS M, COUNT(*) FROM ORDERS"
          + " GROUP BY FLOOR(ORDER_DATE TO MONTH)",
      "SELECT REGION, COUNT(*) AS N FROM CUSTOMERS GROUP BY 1 ORDER BY 2 DESC, 1",
      "SELECT REGION AS R, COUNT(*) AS N FROM CUSTOMERS GROUP BY REGION ORDER BY N DESC, R",
      "SELECT * FROM ORDERS ORDER BY ORDER_ID LIMIT 10",
      "SELECT COUNT(DISTINCT CUSTOMER_ID) FROM ORDERS",
      "SELECT c.REGION, SUM(o.AMOUNT) AS TOTAL FROM CUSTOMERS c INNER JOIN ORDERS o"
          + " ON c.CUSTOMER_ID = o.CUSTOMER_ID GROUP BY c.REGION",
      "SELECT \"REGION\", \"BALANCE\" FROM \"ACCOUNTS\" WHERE \"REGION\" IN ('EU', 'US')"
          + " ORDER BY \"BALANCE\" DESC, \"ACCOUNT_ID\" FETCH FIRST 5 ROWS ONLY",
      "SELECT CAST(SIGNUP AS VARCHAR(10)) FROM CUSTOMERS WHERE CUSTOMER_ID < 5",
      "SELECT UPPER(NAME), CHAR_LENGTH(NAME) FROM CUSTOMERS WHERE NAME LIKE 'customer 1%'",
      "SELECT SUM(CASE WHEN STATUS = 'PAID' THEN 1 ELSE 0 END) AS PAID_ORDERS FROM ORDERS",
      "SELECT MIN(ORDER_DATE), MAX(ORDER_DATE) FROM ORDERS",
      "SELECT EXTRACT(MONTH FROM SIGNUP) AS M, COUNT(*) FROM CUSTOMERS"
          + " GROUP BY EXTRACT(MONTH FROM SIGNUP) ORDER BY M",
      "SELECT t.REGION, t.N FROM (SELECT REGION, COUNT(*) AS N FROM CUSTOMERS"
          + " GROUP BY REGION) t WHERE t.N > 10",
      "SELECT k.NAME, COUNT(*) FROM ACCOUNTS a JOIN COUNTRIES k ON a.REGION = k.REGION"
          + " GROUP BY k.NAME"})
  void biQueryRunsRemotely(String sql) throws SQLException {
    final List<String> expected = sorted(rows(inProcess, sql));
    assertFalse(expected.isEmpty(), sql);
    assertEquals(expected, sorted(rows(connection, sql)), sql);
  }

  @Test void emptyProbeDescribesTheResult() throws SQLException {
    // BI tools learn a query's columns by running it with a false condition.
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("SELECT * FROM ORDERS WHERE 1 = 0")) {
      final ResultSetMetaData md = rs.getMetaData();
      assertEquals(5, md.getColumnCount());
      assertEquals("ORDER_ID", md.getColumnName(1));
      assertEquals(Types.DECIMAL, md.getColumnType(4));
      assertFalse(rs.next());
    }
  }

  private static List<String> rows(Connection on, String sql) throws SQLException {
    try (Statement s = on.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return ShardFixture.rows(rs);
    }
  }
}
