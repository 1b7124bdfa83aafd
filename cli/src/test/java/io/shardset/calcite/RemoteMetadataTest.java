package io.shardset.calcite;

import io.shardset.calcite.remote.ShardSetRemoteDriver;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The metadata of a ShardSet server, read with ShardSet's remote driver
 * ({@code jdbc:shardset:remote:}), which must say what the embedded driver says; and with
 * Avatica's own remote driver, which answers the product name and the NULL ordering without
 * asking the server, but whose column metadata and server properties come from ShardSet.
 */
class RemoteMetadataTest extends MetadataTest {
  private RemoteTestSupport remote;

  @Override Connection open(String model) throws SQLException {
    remote = RemoteTestSupport.serve(model);
    return DriverManager.getConnection(remote.url()
        .replace(Driver.CONNECT_STRING_PREFIX, ShardSetRemoteDriver.CONNECT_STRING_PREFIX));
  }

  @Override void stop() throws Exception {
    remote.close();
  }

  /**
   * Avatica's protocol has no request for keys or indexes: its own remote driver answers them
   * itself, with no rows, and never asks the server; the system tables answer its queries.
   */
  @Test void avaticasDriverListsNoKeysButQueriesTheSystemTables() throws SQLException {
    try (Connection avatica = remote.connect()) {
      final DatabaseMetaData md = avatica.getMetaData();
      try (ResultSet rs = md.getPrimaryKeys(null, null, null)) {
        assertFalse(rs.next());
      }
      try (ResultSet rs = md.getImportedKeys(null, ShardFixture.SCHEMA, "VISITS")) {
        assertFalse(rs.next());
      }
      try (ResultSet rs = md.getIndexInfo(null, ShardFixture.SCHEMA, "T", false, true)) {
        assertFalse(rs.next());
      }
      try (Statement statement = avatica.createStatement()) {
        assertEquals(List.of("T:K:1:T_PK", "VISITS:SITE:1:VISITS_PK", "VISITS:C:2:VISITS_PK"),
            rows(statement.executeQuery("SELECT * FROM \"metadata\".\"PRIMARY_KEYS\""
                + " ORDER BY TABLE_SCHEM, TABLE_NAME, KEY_SEQ"), "TABLE_NAME", "COLUMN_NAME",
                "KEY_SEQ", "PK_NAME"));
        assertEquals(List.of(EVENTS_T.get(0), VISITS_T.get(0)), rows(statement.executeQuery(
            "SELECT * FROM \"metadata\".\"FOREIGN_KEYS\" ORDER BY FKTABLE_NAME"),
            FOREIGN_KEY));
        assertEquals(List.of("PRIMARY_KEY_5:K", "T_NAME:NAME", "T_N_D:N", "T_N_D:D"),
            rows(statement.executeQuery("SELECT * FROM \"metadata\".\"INDEX_INFO\""
                + " WHERE TABLE_NAME = 'T'"
                + " ORDER BY NON_UNIQUE, TYPE, INDEX_NAME, ORDINAL_POSITION"),
                "INDEX_NAME", "COLUMN_NAME"));
      }
    }
  }

  @Test void avaticasDriverGetsTheColumnsAndTheServersProductFromShardSet()
      throws SQLException {
    try (Connection avatica = remote.connect()) {
      final DatabaseMetaData md = avatica.getMetaData();
      assertEquals(EXPECTED_COLUMNS, columns(md));
      final Properties server =
          md.unwrap(AvaticaSpecificDatabaseMetaData.class).getRemoteAvaticaProperties();
      assertEquals("ShardSet", server.getProperty("GET_DATABASE_PRODUCT_NAME"));
      assertVersion(server.getProperty("GET_DATABASE_PRODUCT_VERSION"));
      assertEquals(List.of("ShardSet JDBC Driver",
          server.getProperty("GET_DATABASE_PRODUCT_VERSION")), List.of(
          server.getProperty("GET_DRIVER_NAME"), server.getProperty("GET_DRIVER_VERSION")));
    }
  }
}
