package io.shardset.cli.server;

import io.shardset.calcite.jdbc.ShardSetDriver;

import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/**
 * The connection properties a remote client may choose: only ones that change how its own
 * session parses SQL and shows times, never ones that name models, schemas, files or classes.
 *
 * <p>Avatica's {@code JdbcMeta} lets properties a client sends override the server's, so a
 * client could otherwise send {@code model=inline:...} and reach any JDBC URL from the server.
 */
public final class ClientProperties {
  /** The SQL conformance of remote connections that do not choose one: the embedded
   * driver's. */
  public static final String DEFAULT_CONFORMANCE = ShardSetDriver.DEFAULT_CONFORMANCE;

  /** Session-only Calcite properties a client may set when the server does not. */
  public static final Set<String> ALLOWED = Set.of("timeZone", "locale", "lex",
      "caseSensitive", "quoting", "quotedCasing", "unquotedCasing", "conformance");

  private ClientProperties() {
  }

  /**
   * The properties a connection opens with: every property of the server, and the client's
   * allowed ones the server does not set. Everything else the client sent is dropped, its
   * {@code user} and {@code password} included.
   */
  public static Properties restrict(Properties server, Properties client) {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(client, "client");
    final Properties result = new Properties();
    for (String name : ALLOWED) {
      final String value = client.getProperty(name);
      if (value != null) {
        result.setProperty(name, value);
      }
    }
    for (String name : server.stringPropertyNames()) {
      result.setProperty(name, server.getProperty(name));
    }
    // BI tools write GROUP BY 1 and ORDER BY aliases, which Calcite's default conformance
    // rejects; a client may still ask for another one.
    result.putIfAbsent("conformance", DEFAULT_CONFORMANCE);
    return result;
  }
}
