package io.shardset.calcite;

import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.shardset.testing.ShardFixture.sorted;

/**
 * What the tests of writes to composite and lookup tables share: four H2 shards with a
 * composite table ACCOUNTS (its CLASS 'gld' on shardspace fast, s0 and s1, every other value on
 * slow, s2 and s3) and a lookup table TENANT_DOCS whose directory places tenant t on shard
 * s(t % 4), for t from 1 to 8.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RoutedTables {
  /** ACCOUNTS, with a primary key, and TENANT_DOCS. */
  static final String[] DDL = {
      "CREATE TABLE ACCOUNTS (CUST_ID BIGINT PRIMARY KEY, CLASS VARCHAR(8), BALANCE INTEGER)",
      "CREATE TABLE TENANT_DOCS (DOC_ID INTEGER PRIMARY KEY, TENANT_ID INTEGER NOT NULL,"
          + " TITLE VARCHAR(40) NOT NULL)"};

  ShardFixture fixture;
  String model;
  private Connection directory;

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.h2(4, DDL);
    final String directoryUrl = "jdbc:h2:mem:routed_directory" + System.identityHashCode(
        this) + ";DB_CLOSE_DELAY=-1";
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

  /** Each shard's rows of a table, as "shard: row", read past ShardSet. */
  List<String> placed(String table) throws SQLException {
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
}
