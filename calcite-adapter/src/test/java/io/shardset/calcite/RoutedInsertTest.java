package io.shardset.calcite;

import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;
import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * INSERT into composite and lookup tables on four H2 shards: rows land on the shard of their
 * set's shardspace, or the one the directory names; a key the directory does not know is
 * refused, and nothing of its statement is written.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RoutedInsertTest {
  private static final String[] DDL = {
      "CREATE TABLE ACCOUNTS (CUST_ID BIGINT NOT NULL, CLASS VARCHAR(8), BALANCE INTEGER)",
      "CREATE TABLE TENANT_DOCS (DOC_ID INTEGER PRIMARY KEY, TENANT_ID INTEGER NOT NULL,"
          + " TITLE VARCHAR(40) NOT NULL)"};

  private ShardFixture fixture;
  private Connection directory;
  private String model;

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.h2(4, DDL);
    final String directoryUrl = "jdbc:h2:mem:insert_directory" + System.identityHashCode(this)
        + ";DB_CLOSE_DELAY=-1";
    directory = DriverManager.getConnection(directoryUrl, "sa", "");
    try (Statement s = directory.createStatement()) {
      s.execute("CREATE TABLE SHARD_DIRECTORY (TENANT_ID INTEGER PRIMARY KEY,"
          + " SHARD_NAME VARCHAR(20) NOT NULL)");
      for (int tenant = 1; tenant <= 8; tenant++) {
        s.execute("INSERT INTO SHARD_DIRECTORY VALUES (" + tenant + ", 's" + (tenant % 4)
            + "')");
      }
    }
    model = fixture.model(String.format(Locale.ROOT, """
        "tables": [
          {"name": "ACCOUNTS", "method": "composite", "shardKey": ["CUST_ID"],
           "partitionBy": {"column": "CLASS", "method": "list",
             "sets": [{"name": "gold", "values": ["gld"], "shardspace": "fast"},
                      {"name": "other", "default": true, "shardspace": "slow"}]}},
          {"name": "TENANT_DOCS", "method": "lookup", "shardKey": ["TENANT_ID"],
           "directory": {"jdbcUrl": "%s", "jdbcUser": "sa", "jdbcPassword": ""}}]""",
        directoryUrl), CompositeShardingTest.SHARDSPACES);
  }

  @AfterAll void tearDown() throws SQLException {
    directory.close();
    fixture.close();
  }

  /** Each shard's rows of a table, as "shard: row". */
  private List<String> placed(String table) throws SQLException {
    final List<String> placed = new ArrayList<>();
    for (String shard : fixture.shards().names()) {
      try (Connection c = fixture.shards().endpoint(shard).connect()) {
        for (String row : ShardFixture.rows(c, "SELECT * FROM " + table)) {
          placed.add(shard + ": " + row);
        }
      }
    }
    return sorted(placed);
  }

  @Test void compositeRowsGoToTheirSetsShardspace() throws SQLException {
    final List<String> expected = new ArrayList<>();
    final StringBuilder sql = new StringBuilder("INSERT INTO ACCOUNTS VALUES ");
    final String[] classes = {"gld", "slv", null};
    for (long id = 1; id <= 30; id++) {
      final String klass = classes[(int) (id % classes.length)];
      sql.append(id == 1 ? "" : ", ").append('(').append(id).append(", ")
          .append(klass == null ? "NULL" : "'" + klass + "'").append(", ").append(id * 10)
          .append(')');
      final String shard = "gld".equals(klass) ? "s" + shardOfLong(id, 240, 2)
          : "s" + (2 + shardOfLong(id, 240, 2));
      expected.add(shard + ": " + id + ", " + (klass == null ? "NULL" : klass) + ", "
          + id * 10);
    }
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      assertEquals(30, s.executeUpdate(sql.toString()));
    }
    assertEquals(sorted(expected), placed("ACCOUNTS"));
  }

  @Test void lookupRowsGoWhereTheDirectorySays() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "INSERT INTO TENANT_DOCS VALUES (1, 1, 'one'), (2, 99, 'unknown')"));
      assertEquals("table S.TENANT_DOCS: no shard accepts key TENANT_ID = 99",
          InsertTestBase.message(e));
      assertEquals(List.of(), placed("TENANT_DOCS"));
      assertEquals(3, s.executeUpdate("INSERT INTO TENANT_DOCS VALUES (1, 1, 'one'),"
          + " (2, 6, 'six'), (3, 8, 'eight')"));
    }
    assertEquals(List.of("s0: 3, 8, eight", "s1: 1, 1, one", "s2: 2, 6, six"),
        placed("TENANT_DOCS"));
  }
}
