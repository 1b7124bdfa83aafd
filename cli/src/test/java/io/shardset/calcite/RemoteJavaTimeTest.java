package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.remote.ShardSetRemoteDriver;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code java.time} parameters and columns (JDBC 4.2) through the server. Avatica's own
 * remote driver cannot send them (it has no representation for them) nor read them; its
 * clients convert to {@code java.sql} values, as docs/server.md says. ShardSet's remote
 * driver, and the embedded one, send and read them, LocalDate, LocalTime and LocalDateTime as
 * the fields they hold, and instants as the TIMESTAMP the session's time zone shows.
 */
class RemoteJavaTimeTest {
  private static final LocalDate DAY = LocalDate.of(2024, 2, 29);
  private static final LocalTime TIME = LocalTime.of(10, 15, 30);
  private static final LocalDateTime AT = LocalDateTime.of(2024, 3, 1, 10, 15, 30, 123_000_000);
  /** A time Berlin's clocks skip (summer time began at 02:00 that day). */
  private static final LocalDateTime SKIPPED = LocalDateTime.of(2024, 3, 31, 2, 30);
  private static final String INSERT = "INSERT INTO E (K, D, T, TS) VALUES (?, ?, ?, ?)";
  private static final String SELECT = "SELECT K, D, T, TS FROM E ORDER BY K";

  private ShardFixture fixture;
  private String model;
  private RemoteTestSupport remote;

  @BeforeEach void create() throws SQLException {
    fixture = ShardFixture.h2(2,
        "CREATE TABLE E (K BIGINT PRIMARY KEY, D DATE, T TIME, TS TIMESTAMP(3))");
    model = fixture.model("\"tables\": [{\"name\": \"E\", \"method\": \"consistent-hash\","
        + " \"shardKey\": [\"K\"]}]");
    remote = RemoteTestSupport.serve(model);
  }

  @AfterEach void close() throws Exception {
    try {
      remote.close();
    } finally {
      fixture.close();
    }
  }

  /** A {@code jdbc:shardset:remote:} connection, with these URL properties added. */
  private Connection shardSetRemote(String properties) throws SQLException {
    return DriverManager.getConnection(remote.url().replace(Driver.CONNECT_STRING_PREFIX,
        ShardSetRemoteDriver.CONNECT_STRING_PREFIX) + properties);
  }

  /** A {@code jdbc:shardset:} connection in the given session time zone. */
  private Connection embedded(String timeZone) throws SQLException {
    final Properties info = Connector.info(model);
    info.setProperty("timeZone", timeZone);
    return DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX, info);
  }

  /** The rows of E as the shards hold them, read in process as text, with the timestamp's
   * seconds in milliseconds (the text has none). */
  private List<String> stored() throws SQLException {
    try (Connection connection = Connector.SHARDSET.open(model)) {
      return ShardFixture.rows(connection, "SELECT K, CAST(D AS VARCHAR(10)),"
          + " CAST(T AS VARCHAR(8)), CAST(TS AS VARCHAR(30)), EXTRACT(MILLISECOND FROM TS)"
          + " FROM E ORDER BY K");
    }
  }

  @Test void avaticasDriverCannotSendOrReadJavaTime() throws SQLException {
    try (Connection avatica = remote.connect();
        PreparedStatement insert = avatica.prepareStatement(INSERT)) {
      insert.setLong(1, 1);
      insert.setObject(2, DAY);
      insert.setObject(3, TIME);
      insert.setObject(4, AT);
      final SQLException e = assertThrows(SQLException.class, insert::executeUpdate);
      assertEquals("Unhandled value: OBJECT class java.time.LocalDate", e.getMessage());
      // What its clients do instead: java.sql values, in the JVM's time zone, which is the
      // session's when the URL names none.
      insert.setDate(2, Date.valueOf(DAY));
      insert.setTime(3, Time.valueOf(TIME));
      insert.setTimestamp(4, Timestamp.valueOf(AT));
      assertEquals(1, insert.executeUpdate());
      try (ResultSet rs = avatica.createStatement().executeQuery(SELECT)) {
        rs.next();
        final SQLException read =
            assertThrows(SQLException.class, () -> rs.getObject(2, LocalDate.class));
        assertTrue(read.getMessage().startsWith("cannot convert to Object (with type)"),
            read.getMessage());
        assertEquals(List.of(DAY, TIME, AT), List.of(rs.getDate(2).toLocalDate(),
            rs.getTime(3).toLocalTime(), rs.getTimestamp(4).toLocalDateTime()));
      }
    }
    assertEquals(List.of("1, 2024-02-29, 10:15:30, 2024-03-01 10:15:30, 30123"), stored());
  }

  @Test void shardSetsDriversSendAndReadJavaTime() throws SQLException {
    try (Connection remoteConnection = shardSetRemote("");
        Connection embedded = Connector.SHARDSET.open(model)) {
      insert(remoteConnection, 1, DAY, TIME, AT);
      insert(embedded, 2, DAY.plusDays(1), TIME.plusHours(1), SKIPPED);
      // A target type takes that part of the value (JDBC 4.2's conversions).
      try (PreparedStatement insert = remoteConnection.prepareStatement(INSERT)) {
        insert.setLong(1, 3);
        insert.setObject(2, AT, Types.DATE);
        insert.setObject(3, AT, Types.TIME);
        insert.setObject(4, DAY, Types.TIMESTAMP);
        assertEquals(1, insert.executeUpdate());
      }
      // Calcite's own prepared statement converts to a target type itself, and knows no
      // java.time class: embedded, only setObject without a type takes them (pinned here).
      try (PreparedStatement insert = embedded.prepareStatement(INSERT)) {
        final RuntimeException e = assertThrows(UnsupportedOperationException.class,
            () -> insert.setObject(2, AT, Types.DATE));
        assertEquals("Cannot convert from java.time.LocalDateTime to long", e.getMessage());
      }
      assertEquals(List.of("1, 2024-02-29, 10:15:30, 2024-03-01 10:15:30, 30123",
          "2, 2024-03-01, 11:15:30, 2024-03-31 02:30:00, 0",
          "3, 2024-03-01, 10:15:30, 2024-02-29 00:00:00, 0"), stored());
      for (Connection connection : List.of(remoteConnection, embedded)) {
        assertEquals(List.of("1:" + DAY + ":" + TIME + ":" + AT,
            "2:" + DAY.plusDays(1) + ":" + TIME.plusHours(1) + ":" + SKIPPED,
            "3:2024-03-01:10:15:30:2024-02-29T00:00"),
            read(connection, SELECT));
        try (PreparedStatement select =
                 connection.prepareStatement("SELECT K FROM E WHERE D = ? AND TS = ?")) {
          select.setObject(1, DAY);
          select.setObject(2, AT);
          assertEquals(List.of("1"), ShardFixture.rows(select.executeQuery()));
        }
      }
    }
  }

  /**
   * An instant is the TIMESTAMP the session's time zone shows at it, and reads back as that
   * instant; a LocalDateTime stays what it says, even at a time the zone's clocks skip.
   */
  @Test void instantsAreTimestampsOfTheSessionsTimeZone() throws SQLException {
    final Instant instant = Instant.parse("2024-03-01T10:15:30Z");
    try (Connection remoteConnection = shardSetRemote(";timeZone=Europe/Berlin");
        Connection embedded = embedded("Europe/Berlin")) {
      insert(remoteConnection, 1, null, null, instant);
      insert(remoteConnection, 2, null, null, SKIPPED);
      insert(embedded, 3, null, null, OffsetDateTime.parse("2024-03-01T10:15:30Z"));
      assertEquals(List.of("1, NULL, NULL, 2024-03-01 11:15:30, 30000",
          "2, NULL, NULL, 2024-03-31 02:30:00, 0", "3, NULL, NULL, 2024-03-01 11:15:30, 30000"),
          stored());
      for (Connection connection : List.of(remoteConnection, embedded)) {
        try (ResultSet rs = connection.createStatement().executeQuery(SELECT)) {
          rs.next();
          assertEquals(instant, rs.getObject("TS", Instant.class));
          assertEquals(OffsetDateTime.parse("2024-03-01T11:15:30+01:00"),
              rs.getObject("TS", OffsetDateTime.class));
          rs.next();
          assertEquals(SKIPPED, rs.getObject("TS", LocalDateTime.class));
          assertEquals(null, rs.getObject("D", LocalDate.class));
        }
      }
    }
  }

  /** Avatica's JSON serialization, its clients' default, carries them too. */
  @Test void shardSetsRemoteDriverSendsJavaTimeInJson() throws Exception {
    try (RemoteTestSupport json = RemoteTestSupport.serve(model, Driver.Serialization.JSON);
        Connection connection = DriverManager.getConnection(json.url().replace(
            Driver.CONNECT_STRING_PREFIX, ShardSetRemoteDriver.CONNECT_STRING_PREFIX))) {
      insert(connection, 1, DAY, TIME, AT);
      assertEquals(List.of("1:" + DAY + ":" + TIME + ":" + AT), read(connection, SELECT));
    }
    assertEquals(List.of("1, 2024-02-29, 10:15:30, 2024-03-01 10:15:30, 30123"), stored());
  }

  private static void insert(Connection connection, long key, Object day, Object time,
      Object at) throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
      insert.setLong(1, key);
      insert.setObject(2, day);
      insert.setObject(3, time);
      insert.setObject(4, at);
      assertEquals(1, insert.executeUpdate());
    }
  }

  /** Each row's key and its columns as java.time values. */
  private static List<String> read(Connection connection, String sql) throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (ResultSet rs = connection.createStatement().executeQuery(sql)) {
      while (rs.next()) {
        rows.add(rs.getLong(1) + ":" + rs.getObject(2, LocalDate.class) + ":"
            + rs.getObject(3, LocalTime.class) + ":" + rs.getObject(4, LocalDateTime.class));
      }
    }
    return rows;
  }
}
