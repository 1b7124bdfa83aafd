package io.shardset.calcite;

import io.shardset.calcite.remote.ShardSetRemoteDriver;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Timestamps finer than a millisecond written through the server keep their microseconds
 * (Avatica's protocol carries a TIMESTAMP parameter as milliseconds): ShardSet's remote
 * driver sends such a value as text, which the server reads exactly, and Avatica's own
 * driver can send the text itself ({@code setString}). Checked on the shards.
 */
class RemoteTimestampPrecisionTest {
  private static final LocalDateTime AT = LocalDateTime.parse("2024-01-31T10:00:00.123456");
  private static final LocalDateTime BEFORE_EPOCH =
      LocalDateTime.parse("1969-12-31T23:59:59.999999");
  private static final String INSERT = "INSERT INTO E (K, TS) VALUES (?, ?)";

  private ShardFixture fixture;
  private RemoteTestSupport remote;

  @BeforeEach void create() throws SQLException {
    fixture = ShardFixture.h2(2, "CREATE TABLE E (K BIGINT PRIMARY KEY, TS TIMESTAMP(6))");
    remote = RemoteTestSupport.serve(fixture.model("\"tables\": [{\"name\": \"E\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]"));
  }

  @AfterEach void close() throws Exception {
    try {
      remote.close();
    } finally {
      fixture.close();
    }
  }

  @Test void shardSetsRemoteDriverSendsMicroseconds() throws SQLException {
    try (Connection connection = DriverManager.getConnection(remote.url().replace(
            Driver.CONNECT_STRING_PREFIX, ShardSetRemoteDriver.CONNECT_STRING_PREFIX));
        PreparedStatement insert = connection.prepareStatement(INSERT)) {
      insert.setLong(1, 1);
      insert.setTimestamp(2, Timestamp.valueOf(AT));
      insert.executeUpdate();
      insert.setLong(1, 2);
      insert.setObject(2, BEFORE_EPOCH);
      insert.executeUpdate();
      insert.setLong(1, 3);
      insert.setObject(2, Timestamp.valueOf(AT), Types.TIMESTAMP);
      insert.executeUpdate();
      insert.setLong(1, 4);
      insert.setTimestamp(2, Timestamp.valueOf(BEFORE_EPOCH));
      insert.addBatch();
      insert.setLong(1, 5);
      insert.setObject(2, AT);
      insert.addBatch();
      insert.executeBatch();
      try (PreparedStatement update = connection.prepareStatement(
          "UPDATE E SET TS = ? WHERE K = ?")) {
        update.setObject(1, AT.plusNanos(1_000));
        update.setLong(2, 1);
        update.executeUpdate();
      }
    }
    assertEquals(Map.of(1L, "2024-01-31T10:00:00.123457", 2L, BEFORE_EPOCH.toString(),
        3L, AT.toString(), 4L, BEFORE_EPOCH.toString(), 5L, AT.toString()), stored());
  }

  @Test void avaticasDriverSendsMicrosecondsAsText() throws SQLException {
    try (Connection avatica = remote.connect();
        PreparedStatement insert = avatica.prepareStatement(INSERT)) {
      insert.setLong(1, 1);
      insert.setString(2, "2024-01-31 10:00:00.123456");
      insert.executeUpdate();
      // Its setTimestamp sends milliseconds, as Avatica's protocol does.
      insert.setLong(1, 2);
      insert.setTimestamp(2, Timestamp.valueOf(AT));
      insert.executeUpdate();
    }
    assertEquals(Map.of(1L, AT.toString(), 2L, "2024-01-31T10:00:00.123"), stored());
  }

  /** Each row's timestamp as the shards hold it. */
  private Map<Long, String> stored() throws SQLException {
    final Map<Long, String> rows = new TreeMap<>();
    for (String shard : fixture.shards().names()) {
      try (Connection c = fixture.shards().endpoint(shard).connect();
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT K, TS FROM E")) {
        while (rs.next()) {
          rows.put(rs.getLong(1), rs.getObject(2, LocalDateTime.class).toString());
        }
      }
    }
    return rows;
  }
}
