package io.shardset.calcite.prepare;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The settings that tell apart the connections that may share a plan: Calcite's connection
 * properties, named as its configuration accepts them, and nothing of ShardSet's own or of the
 * user's.
 */
class PlanSettingsTest {
  @Test void calcitesPropertiesAreReadAsCalciteReadsThem() {
    final Properties info = properties("conformance", "LENIENT", "FUN", "standard,postgresql",
        "timeZone", "UTC", "model", "/srv/model.json", "unquotedCasing", "TO_LOWER");
    assertEquals(new TreeMap<>(Map.of("CONFORMANCE", "LENIENT", "FUN", "standard,postgresql",
        "TIME_ZONE", "UTC", "MODEL", "/srv/model.json", "UNQUOTED_CASING", "TO_LOWER")),
        PlanSettings.of(info).values());
  }

  @Test void shardSetsAndTheUsersPropertiesDoNotSplitPlans() {
    final PlanSettings plain = PlanSettings.of(properties("fun", "standard"));
    assertEquals(plain, PlanSettings.of(properties("fun", "standard", "user", "ann",
        "password", "secret", "clientAddress", "10.0.0.7", "scatter", "deny", "maxShards",
        "2", "sortMemory", "1MB", "slowQueryMillis", "5", "statements", "own", "audit",
        "true")));
    assertNotEquals(plain, PlanSettings.of(properties("fun", "standard", "caseSensitive",
        "false")));
  }

  private static Properties properties(String... namesAndValues) {
    final Properties properties = new Properties();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      properties.setProperty(namesAndValues[i], namesAndValues[i + 1]);
    }
    return properties;
  }
}
