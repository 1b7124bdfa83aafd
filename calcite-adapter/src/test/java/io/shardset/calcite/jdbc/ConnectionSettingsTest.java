package io.shardset.calcite.jdbc;

import io.shardset.testing.ShardFixture;

import org.apache.calcite.avatica.AvaticaConnection;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.TimeZone;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A {@code jdbc:shardset:} connection parses its settings once: its time zone is the one its
 * {@code timeZone} property names, after any number of executions, and a caller that changes
 * the time zone it was handed changes nothing for the connection.
 */
class ConnectionSettingsTest {
  @Test void theTimeZonePropertyHoldsForEveryExecution() throws SQLException {
    final Properties info = new Properties();
    info.setProperty("timeZone", "GMT+05:00");
    try (Connection c = DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX, info)) {
      final AvaticaConnection avatica = c.unwrap(AvaticaConnection.class);
      final TimeZone handed = avatica.getTimeZone();
      assertEquals("GMT+05:00", handed.getID());
      handed.setRawOffset(0);
      handed.setID("UTC");
      assertEquals("GMT+05:00", avatica.getTimeZone().getID());
      assertEquals(5 * 3_600_000, avatica.getTimeZone().getRawOffset());
      for (int i = 0; i < 3; i++) {
        assertEquals(List.of("1"), ShardFixture.rows(c, "SELECT 1"));
        assertEquals("GMT+05:00", avatica.getTimeZone().getID());
      }
    }
  }

  @Test void withoutThePropertyTheJvmsDefaultApplies() throws SQLException {
    try (Connection c = DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX)) {
      assertEquals(TimeZone.getDefault().getID(),
          c.unwrap(AvaticaConnection.class).getTimeZone().getID());
    }
  }
}
