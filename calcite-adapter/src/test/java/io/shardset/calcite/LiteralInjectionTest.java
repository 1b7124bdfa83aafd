package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.testing.Backend;
import io.shardset.testing.CountingShards;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Hostile text inside string literals reaches the shards as data: every query returns what the
 * unsharded database returns, through {@code jdbc:calcite:} and {@code jdbc:shardset:}, and every
 * statement a shard receives has the structure it has for harmless text.
 *
 * <p>The shards are H2 here; subclasses run the same queries on PostgreSQL, MariaDB and a mix.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiteralInjectionTest {
  /**
   * Text that breaks out of a literal, or into a comment, in some reading of SQL. No carriage
   * return: Calcite's generated code loses it from string constants, shards or not.
   */
  static final List<String> PAYLOADS = List.of(
      "' OR 1=1 --", "\\' OR 1=1 -- ", "\\'' OR 1=1 -- ", "'; DROP TABLE K; --",
      "\\') union select V from SECRETS -- ", "\\'' union select V from SECRETS -- ",
      "\\", "\\\\", "\\\\'", "a\\", "\\%", "\\_", "%", "_", "a%b_", "", "''", "\"", "\\\"", "`",
      "\0", "a\0b", "\t\n", "\u0001\u001f\u007f", "\uD83D\uDE00", "a\uD83D\uDE00b", "*/",
      "/*", "--", "#", ";", "$$", "$1", "?", ":x",
      "\u02BC OR 1=1 --", "\uFF07 OR 1=1 --", "\u2019 OR 1=1 --", "\\\u02BC", "\\\uFF07");

  private ShardFixture fixture;
  private final Map<String, Connection> connections = new HashMap<>();
  /** What the shards received for harmless text, by connection and statement. */
  private final Map<String, String> benignSkeletons = new HashMap<>();

  /** The databases the shards and the oracle live on. */
  Backend backend() {
    return Backend.H2;
  }

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(backend(), 4,
        "CREATE TABLE K (ID INTEGER PRIMARY KEY, S VARCHAR(200))",
        "CREATE TABLE SECRETS (V VARCHAR(50))",
        "INSERT INTO SECRETS VALUES ('api-key-of-another-tenant')");
    final String model = fixture.model("\"tables\": [{\"name\": \"K\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]");
    final List<Object[]> rows = new ArrayList<>();
    int id = 0;
    for (String text : PAYLOADS) {
      if (text.indexOf('\0') < 0) { // PostgreSQL text cannot hold NUL
        rows.add(new Object[] {id++, text});
      }
    }
    for (String text : new String[] {"a", "A", "b", "plain", "x'y", "x\\y"}) {
      rows.add(new Object[] {id++, text});
    }
    rows.add(new Object[] {id, null});
    try (Connection loading = ShardFixture.connect(model)) {
      fixture.load(loading, "K", rows);
    }
    connections.put("jdbc:calcite:", ShardFixture.connect(model));
    final Properties info = new Properties();
    info.setProperty("model", "inline:" + model);
    connections.put(ShardSetDriver.CONNECT_STRING_PREFIX,
        DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX, info));
  }

  @AfterAll void tearDown() throws SQLException {
    for (Connection c : connections.values()) {
      c.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test void loadedTextIsReadBackUnchanged() throws SQLException {
    final String sql = "SELECT ID, S FROM K";
    assertEquals(ShardFixture.sorted(fixture.oracleRows(sql)),
        ShardFixture.sorted(ShardFixture.rows(connections.get("jdbc:calcite:"), sql)));
  }

  /**
   * Each query with each payload as its literal {@code $} (twice where it appears twice),
   * written the standard way (quotes doubled, nothing else escaped). A query with {@code ~~}
   * gives ShardSet's text before it and the oracle's after it.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT ID FROM K WHERE S = $",
      "SELECT S FROM K WHERE LOWER(S) = LOWER($)",
      "SELECT COUNT(*) FROM K WHERE UPPER(S) = UPPER($)",
      "SELECT ID FROM K WHERE S || 'x' = $ || 'x'",
      "SELECT ID, S || $ FROM K WHERE ID < 8",
      // The standard gives LIKE no escape character; H2, PostgreSQL and MariaDB default to a
      // backslash. ShardSet keeps the standard's meaning, which '!' (in no payload) spells out.
      "SELECT ID FROM K WHERE S LIKE $ ~~ SELECT ID FROM K WHERE S LIKE $ ESCAPE '!'",
      "SELECT ID FROM K WHERE {fn CONCAT($, S)} <> S ~~ SELECT ID FROM K WHERE ($ || S) <> S",
      "SELECT ID FROM K WHERE CASE WHEN S = $ THEN 1 ELSE 0 END = 1",
      "SELECT ID FROM K WHERE CHAR_LENGTH(S) = CHAR_LENGTH($) AND S <> $"})
  void literalsStayLiterals(String query) throws SQLException {
    final String[] texts = query.split(" ~~ ", 2);
    final List<String> failures = new ArrayList<>();
    for (String payload : PAYLOADS) {
      final String sql = texts[0].replace("$", quote(payload));
      final String oracleSql = texts[texts.length - 1].replace("$", quote(payload));
      final String expected = answer(fixture.oracle(), oracleSql);
      for (Map.Entry<String, Connection> c : connections.entrySet()) {
        fixture.shards().resetCounters();
        final String actual = answer(c.getValue(), sql);
        if (actual.startsWith("error Failed to encode")) {
          // Calcite reads SQL literals as ISO-8859-1 unless configured otherwise; what it
          // refuses never reaches a shard.
          assertEquals(0, fixture.shards().statementsExecuted(), sql);
          continue;
        }
        final boolean refused = actual.startsWith("error");
        if (expected.equals(actual) || refused && expected.startsWith("error")) {
          if (!refused) {
            failures.addAll(structureFailures(c.getValue(), sql, payload));
          }
        } else if (!(payload.indexOf('\0') >= 0 && hasPostgresShards())) {
          // PostgreSQL text cannot hold NUL: its shards refuse such a literal, or ShardSet
          // evaluates the comparison above them; neither can match a stored value.
          failures.add(c.getKey() + " " + sql + "\n  expected " + expected + "\n  actual   "
              + actual + "\n  shards received " + fixture.shards().executions("s0"));
        }
      }
    }
    assertEquals(List.of(), failures, String.join("\n", failures));
  }

  private boolean hasPostgresShards() {
    return backend() == Backend.POSTGRES || backend() == Backend.MIXED
        || backend() == Backend.MIXED_WITH_MARIADB;
  }

  /** The rows of a query, sorted, or "error" and why if the database refuses it. */
  private static String answer(Connection connection, String sql) {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return ShardFixture.sorted(ShardFixture.rows(rs)).toString();
    } catch (SQLException | RuntimeException e) {
      // A shard's refusal while rows are read arrives unchecked.
      return "error " + rootMessage(e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return String.valueOf(t.getMessage());
  }

  /**
   * Checks every statement the shards received: each literal ends where the shard reads it to
   * end, no comment or statement separator appears outside literals, and (except for LIKE,
   * whose pattern decides what Calcite pushes) the statement with every literal blanked out is
   * the one harmless text of the same kind of characters gives.
   */
  private List<String> structureFailures(Connection connection, String sql, String payload)
      throws SQLException {
    final List<String> failures = new ArrayList<>();
    final Map<String, String> skeletons = skeletons();
    fixture.shards().resetCounters();
    String benign = null;
    if (!sql.contains(" LIKE ")) {
      final String benignSql = sql.replace(quote(payload), quote(benign(payload)));
      benign = benignSkeletons.get(connection + benignSql);
      if (benign == null) {
        fixture.shards().resetCounters();
        answer(connection, benignSql);
        benign = skeletons().toString();
        benignSkeletons.put(connection + benignSql, benign);
      }
    }
    for (Map.Entry<String, String> e : skeletons.entrySet()) {
      final String skeleton = e.getValue();
      for (String marker : new String[] {"--", "/*", "*/", "#", ";"}) {
        if (skeleton.contains(marker)) {
          failures.add("shard " + e.getKey() + " received " + marker + " outside literals for "
              + sql + ": " + skeleton);
        }
      }
    }
    if (benign != null && !benign.equals(skeletons.toString())) {
      failures.add("structure changed for " + sql + ": " + skeletons + " against " + benign);
    }
    return failures;
  }

  /** The statements each shard received since the counters were reset, literals blanked. */
  private Map<String, String> skeletons() throws SQLException {
    final Map<String, String> skeletons = new HashMap<>();
    final CountingShards shards = fixture.shards();
    for (String shard : shards.names()) {
      final boolean backslashEscapes = backslashEscapes(shard);
      final StringBuilder b = new StringBuilder();
      for (CountingShards.Execution execution : shards.executions(shard)) {
        b.append(skeleton(execution.sql(), backslashEscapes)).append('\n');
      }
      skeletons.put(shard, b.toString());
    }
    return skeletons;
  }

  /** Whether a shard's sessions read a backslash in a literal as an escape (MariaDB's
   * default). */
  private boolean backslashEscapes(String shard) throws SQLException {
    try (Connection c = fixture.shards().pooledEndpoint(shard).connect()) {
      if (!c.getMetaData().getDatabaseProductName().equalsIgnoreCase("MariaDB")) {
        return false;
      }
      try (Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT @@SESSION.sql_mode")) {
        rs.next();
        return !rs.getString(1).contains("NO_BACKSLASH_ESCAPES");
      }
    }
  }

  /** The statement as the shard reads it, each string literal replaced by {@code '?'} and each
   * number by {@code 9} (lengths of literals are folded into numbers). */
  static String skeleton(String sql, boolean backslashEscapes) {
    final StringBuilder b = new StringBuilder();
    int i = 0;
    while (i < sql.length()) {
      final char c = sql.charAt(i);
      if (c == '\'') {
        i++;
        boolean closed = false;
        while (i < sql.length()) {
          final char d = sql.charAt(i);
          if (backslashEscapes && d == '\\') {
            i += 2;
          } else if (d == '\'' && i + 1 < sql.length() && sql.charAt(i + 1) == '\'') {
            i += 2;
          } else if (d == '\'') {
            i++;
            closed = true;
            break;
          } else {
            i++;
          }
        }
        b.append(closed ? "'?'" : "'<unterminated>");
      } else if (c == '"' || c == '`') {
        final int end = sql.indexOf(c, i + 1);
        b.append(sql, i, end < 0 ? sql.length() : end + 1);
        i = end < 0 ? sql.length() : end + 1;
      } else if (Character.isDigit(c)) {
        while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
          i++;
        }
        b.append('9');
      } else {
        b.append(c);
        i++;
      }
    }
    return b.toString();
  }

  /** Harmless text that Calcite renders the same way: non-ASCII (or control) text if the
   * payload has such characters, letters otherwise. */
  static String benign(String payload) {
    return payload.isEmpty() ? "" : payload.codePoints()
        .anyMatch(c -> c < 32 && c != 10 && c != 13 || c >= 128) ? "z\u00e9" : "zz";
  }

  /** A standard SQL string literal: quotes doubled, nothing else escaped. */
  static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
