package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetRemoteDriver;

import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
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
   * Avatica's protocol has no request for primary keys: its remote driver answers
   * getPrimaryKeys itself, with no rows, and never asks the server. What a remote client sees
   * today, pinned so that a change to it is noticed.
   */
  @Override @Test void primaryKeysAreTheShardsKeys() throws SQLException {
    try (ResultSet rs = connection().getMetaData().getPrimaryKeys(null, null, null)) {
      assertFalse(rs.next());
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
