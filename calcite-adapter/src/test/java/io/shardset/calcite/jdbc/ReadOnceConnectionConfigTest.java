package io.shardset.calcite.jdbc;

import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.jdbc.CalciteConnection;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** The settings read once are those Calcite's configuration reads each time. */
class ReadOnceConnectionConfigTest {
  @Test void givesWhatCalcitesConfigurationGives() {
    for (Properties properties : List.of(new Properties(), properties("de_DE", "Asia/Tokyo",
        "true"), properties("en_US", "UTC", "false"))) {
      final CalciteConnectionConfig calcite = new CalciteConnectionConfigImpl(properties);
      final CalciteConnectionConfig once = new ReadOnceConnectionConfig(properties);
      assertEquals(calcite.locale(), once.locale());
      assertEquals(calcite.timeZone(), once.timeZone());
      assertEquals(calcite.autoTemp(), once.autoTemp());
      assertEquals(calcite.spark(), once.spark());
      assertEquals(calcite.conformance(), once.conformance());
    }
  }

  @Test void aConnectionReadsItsSettingsOnce() throws Exception {
    final Properties info = new Properties();
    info.setProperty("model", "inline:{\"version\": \"1.0\", \"schemas\": []}");
    info.setProperty("timeZone", "Asia/Tokyo");
    try (Connection c = DriverManager.getConnection("jdbc:shardset:", info)) {
      final CalciteConnectionConfig config = c.unwrap(CalciteConnection.class).config();
      assertInstanceOf(ReadOnceConnectionConfig.class, config);
      assertEquals("Asia/Tokyo", config.timeZone());
    }
  }

  private static Properties properties(String locale, String timeZone, String flags) {
    final Properties properties = new Properties();
    properties.setProperty("locale", locale);
    properties.setProperty("timeZone", timeZone);
    properties.setProperty("autoTemp", flags);
    properties.setProperty("spark", flags);
    return properties;
  }
}
