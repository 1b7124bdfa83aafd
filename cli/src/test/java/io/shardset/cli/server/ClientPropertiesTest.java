package io.shardset.cli.server;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which connection properties of a remote client reach Calcite. */
class ClientPropertiesTest {
  private static Properties properties(String... nameValues) {
    final Properties p = new Properties();
    for (int i = 0; i < nameValues.length; i += 2) {
      p.setProperty(nameValues[i], nameValues[i + 1]);
    }
    return p;
  }

  private static Map<Object, Object> sorted(Properties p) {
    return new TreeMap<>(p);
  }

  @Test void serverPropertiesWinAndOnlyAllowedClientOnesPass() {
    final Properties server = properties("model", "/srv/model.json", "lex", "JAVA");
    final Properties client = properties("model", "inline:{}", "schemaFactory", "x.Evil",
        "lex", "MYSQL", "timeZone", "UTC", "user", "alice", "password", "secret",
        "fun", "oracle", "caseSensitive", "false");
    assertEquals(Map.of("model", "/srv/model.json", "lex", "JAVA", "timeZone", "UTC",
        "caseSensitive", "false", "conformance", "LENIENT"),
        sorted(ClientProperties.restrict(server, client)));
  }

  @Test void aClientMayChooseItsConformance() {
    assertEquals(Map.of("model", "/srv/model.json", "conformance", "DEFAULT"),
        sorted(ClientProperties.restrict(properties("model", "/srv/model.json"),
            properties("conformance", "DEFAULT"))));
  }

  @Test void noClientPropertiesGiveTheServerOnesAndLenientSql() {
    assertEquals(Map.of("model", "/srv/model.json", "conformance", "LENIENT"),
        sorted(ClientProperties.restrict(properties("model", "/srv/model.json"),
            new Properties())));
  }
}
