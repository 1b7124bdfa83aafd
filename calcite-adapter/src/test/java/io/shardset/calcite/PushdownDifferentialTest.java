package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every operator, function, cast and literal type that ShardSet pushes gives, computed by the
 * shards, what Calcite computes above them: each generated expression is evaluated through
 * ShardSet (pushed into the shards' SQL) and by Calcite alone over a VALUES copy of the same
 * rows. Where the shards refuse (an integer overflow, say), the unsharded database of the same
 * product must refuse too. H2 here; subclasses run on PostgreSQL and MariaDB.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PushdownDifferentialTest {
  private static final String COLUMNS = "ID, I, B, N, D, S, DT, TS, BO";

  private ShardFixture fixture;
  private Connection shardSet;
  private Connection calcite;
  private String values;

  Backend backend() {
    return Backend.H2;
  }

  /** The timestamp column's type: MariaDB's TIMESTAMP converts time zones and stops in 2038. */
  String timestampType() {
    return "TIMESTAMP(6)";
  }

  /** Whether DOUBLE columns hold NaN and infinities (MariaDB's do not). */
  boolean storesNan() {
    return true;
  }

  /** Values of each column, NULL included; rows take them round-robin. */
  private List<List<Object>> columnValues() {
    final List<Object> doubles = new ArrayList<>(Arrays.asList(0.0d, -0.0d, 1.5d, 1e308d,
        -1e-300d, null));
    if (storesNan()) {
      doubles.addAll(List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
    }
    return List.of(
        Arrays.asList(0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 7, null),
        Arrays.asList(0L, Long.MAX_VALUE, Long.MIN_VALUE, 42L, -1L, null),
        Arrays.asList(new BigDecimal("0"), new BigDecimal("1.5"), new BigDecimal("-1.5"),
            new BigDecimal("9999999999999.999999"), new BigDecimal("-0.000001"), null),
        doubles,
        Arrays.asList("", "a", "A", "O'Brien", "back\\slash", "tab\there", "Stra\u00dfe",
            "%_", "a%", " pad ", null),
        Arrays.asList(LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31),
            LocalDate.of(1970, 1, 1), LocalDate.of(2000, 2, 29), LocalDate.of(1900, 3, 1),
            null),
        Arrays.asList(LocalDateTime.of(1970, 1, 1, 0, 0),
            LocalDateTime.of(2000, 2, 29, 23, 59, 59, 999_999_000),
            LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
            LocalDateTime.of(1000, 1, 1, 0, 0, 0, 1_000), null),
        Arrays.asList(true, false, null));
  }

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(backend(), 4, "CREATE TABLE E (ID INTEGER PRIMARY KEY,"
        + " I INTEGER, B BIGINT, N DECIMAL(19, 6), D DOUBLE PRECISION, S VARCHAR(40),"
        + " DT DATE, TS " + timestampType() + ", BO BOOLEAN)");
    final String model = fixture.model("\"tables\": [{\"name\": \"E\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]");
    final List<List<Object>> columns = columnValues();
    final List<Object[]> rows = new ArrayList<>();
    final StringJoiner valuesText = new StringJoiner(", ", "(VALUES ", ") AS E(" + COLUMNS + ")");
    for (int id = 0; id < 36; id++) {
      final Object[] row = new Object[columns.size() + 1];
      row[0] = id;
      final StringJoiner text = new StringJoiner(", ", "(", ")");
      text.add("CAST(" + id + " AS INTEGER)");
      for (int c = 0; c < columns.size(); c++) {
        final List<Object> values = columns.get(c);
        row[c + 1] = values.get((id + c) % values.size());
        text.add(calciteLiteral(c, row[c + 1]));
      }
      rows.add(row);
      valuesText.add(text.toString());
    }
    values = valuesText.toString();
    try (Connection loading = ShardFixture.connect(model)) {
      fixture.load(loading, "E", rows);
    }
    shardSet = Connector.SHARDSET.open(model);
    calcite = DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX,
        new Properties());
  }

  private static final String[] TYPES = {"INTEGER", "BIGINT", "DECIMAL(19, 6)", "DOUBLE",
      "VARCHAR(40)", "DATE", "TIMESTAMP(6)", "BOOLEAN"};

  /** A value as a typed Calcite literal. */
  private static String calciteLiteral(int column, Object value) {
    final String type = TYPES[column];
    if (value == null) {
      return "CAST(NULL AS " + type + ")";
    }
    if (value instanceof Double d) {
      return "CAST('" + d + "' AS DOUBLE)";
    }
    if (value instanceof String s) {
      return "CAST(" + LiteralInjectionTest.quote(s) + " AS " + type + ")";
    }
    if (value instanceof LocalDate d) {
      return "DATE '" + d + "'";
    }
    if (value instanceof LocalDateTime t) {
      return "CAST(TIMESTAMP '"
          + t.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT))
          + "' AS " + type
          + ")";
    }
    return "CAST(" + value + " AS " + type + ")";
  }

  @AfterAll void tearDown() throws SQLException {
    for (Connection c : new Connection[] {shardSet, calcite}) {
      if (c != null) {
        c.close();
      }
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  /** Predicates: each column compared with each of its literals, and the other tests. */
  static List<String> predicates() {
    final List<String> literals = List.of(
        "I|0", "I|-1", "I|2147483647", "I|-2147483648",
        "B|9223372036854775807", "B|-9223372036854775808", "B|42",
        "N|1.5", "N|-0.000001", "N|9999999999999.999999", "N|0",
        "D|1.5E0", "D|0.0E0", "D|-1E-300", "D|1E308",
        "S|''", "S|'a'", "S|'O''Brien'", "S|'back\\slash'", "S|' pad '", "S|'Stra\u00dfe'",
        "DT|DATE '0001-01-01'", "DT|DATE '9999-12-31'", "DT|DATE '2000-02-29'",
        "DT|DATE '1970-01-01'",
        "TS|TIMESTAMP '2000-02-29 23:59:59.999999'", "TS|TIMESTAMP '1970-01-01 00:00:00'",
        "TS|TIMESTAMP '1000-01-01 00:00:00.000001'",
        "TS|TIMESTAMP '9999-12-31 23:59:59.999999'");
    final List<String> predicates = new ArrayList<>();
    for (String entry : literals) {
      final String[] parts = entry.split("\\|", 2);
      for (String op : new String[] {"=", "<>", "<", "<=", ">", ">="}) {
        predicates.add(parts[0] + " " + op + " " + parts[1]);
      }
    }
    for (String column : COLUMNS.split(", ")) {
      predicates.add(column + " IS NULL");
      predicates.add(column + " IS NOT NULL");
    }
    predicates.addAll(List.of("BO", "NOT BO", "BO IS TRUE", "BO IS NOT TRUE", "BO IS FALSE",
        "BO IS NOT FALSE", "BO = TRUE", "I IN (0, 1, 7)", "I NOT IN (0, 1)",
        "S IN ('a', 'A', '')", "I BETWEEN -1 AND 7", "N BETWEEN -1.5 AND 1.5",
        "DT BETWEEN DATE '1900-03-01' AND DATE '2000-02-29'",
        "TS BETWEEN TIMESTAMP '1970-01-01 00:00:00' AND TIMESTAMP '2000-02-29 23:59:59.999998'",
        "S LIKE 'a%'", "S LIKE '_'", "S LIKE '%a%'", "S LIKE ''", "S LIKE '%'",
        "UPPER(S) = 'A'", "LOWER(S) = 'a'", "UPPER(S) = UPPER('stra\u00dfe')",
        "CHAR_LENGTH(S) = 0", "CHAR_LENGTH(S) > 3", "S || 'x' = 'ax'",
        "COALESCE(S, 'none') = 'none'", "(I > 0 OR B > 0) AND NOT (S = 'a')",
        "CASE WHEN I > 0 THEN S ELSE 'neg' END = 'neg'", "ABS(I) = 1", "ABS(N) = 1.5",
        "ABS(D) = 1.5E0", "-I = 1", "I + 1 = 8", "B - 1 = 41", "N * 2 = 3", "D * 2 = 3E0",
        "CAST(I AS BIGINT) = 7", "CAST(I AS DECIMAL(12, 2)) = 7", "CAST(S AS VARCHAR(100)) = 'a'",
        "D = -0.0E0", "D > 0", "N = 0.0"));
    return predicates;
  }

  /** Row expressions pushed in a projection. */
  static List<String> projections() {
    return List.of("I + 1", "I - 1", "I * 2", "-I", "B + 1", "B * 2", "-B", "N + 1.5",
        "N * N", "-N", "D + 1.5E0", "D * 2", "-D", "ABS(I)", "ABS(B)", "ABS(N)", "ABS(D)",
        "UPPER(S)", "LOWER(S)", "CHAR_LENGTH(S)", "S || 'x'", "S || S", "COALESCE(S, 'none')",
        "CASE WHEN BO THEN 1 WHEN NOT BO THEN 0 END", "CAST(I AS BIGINT)",
        "CAST(I AS DECIMAL(12, 2))", "CAST(B AS DECIMAL(20, 0))", "DT", "TS", "D", "N", "S",
        "BO", "I > 0", "S LIKE 'a%'", "I IS NULL");
  }

  @Test void predicatesAgree() {
    final List<String> failures = new ArrayList<>();
    for (String predicate : predicates()) {
      compare("SELECT ID FROM E WHERE " + predicate, failures);
    }
    assertEquals(List.of(), failures, String.join("\n", failures));
  }

  @Test void projectionsAgree() {
    final List<String> failures = new ArrayList<>();
    for (String expression : projections()) {
      compare("SELECT ID, " + expression + " FROM E", failures);
    }
    assertEquals(List.of(), failures, String.join("\n", failures));
  }

  /**
   * Runs a query through ShardSet and over the VALUES copy, and records any difference that
   * the unsharded database of the shards' product does not share: where Calcite and the
   * databases disagree (NaN compares above every number in the databases and never in Calcite;
   * {@code UPPER('ß')} is {@code 'SS'} only in Java; Calcite's timestamps above the shards are
   * milliseconds), the pushed expression follows the database, as an unsharded one would.
   * A shard's value that the column type cannot hold (an INTEGER sum MariaDB widens) is
   * refused, never wrapped as Calcite's own arithmetic wraps it.
   */
  private void compare(String sql, List<String> failures) {
    final String above = answer(calcite, sql.replace("FROM E", "FROM " + values));
    final String pushed = answer(shardSet, sql);
    if (pushed.equals(above) || pushed.startsWith("error integer overflow")) {
      return;
    }
    final String unsharded = answer(fixture.oracle(), sql);
    if (pushed.equals(unsharded) || pushed.startsWith("error") && unsharded.startsWith("error")) {
      return;
    }
    failures.add(sql + "\n  above:     " + above + "\n  pushed:    " + pushed
        + "\n  unsharded: " + unsharded);
  }

  /** The rows of a query, sorted and written so that NaN, infinities and zeros show; or
   * "error" and why. */
  static String answer(Connection connection, String sql) {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final List<String> rows = new ArrayList<>();
      final int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        final StringJoiner row = new StringJoiner(", ");
        for (int i = 1; i <= columns; i++) {
          final Object value = rs.getObject(i);
          // ShardSet reads zeros unsigned (see RowReader).
          row.add(value instanceof Double || value instanceof Float
              ? String.valueOf(((Number) value).doubleValue() + 0.0d)
              : value instanceof BigDecimal d ? d.stripTrailingZeros().toPlainString()
              : String.valueOf(value));
        }
        rows.add(row.toString());
      }
      return ShardFixture.sorted(rows).toString();
    } catch (SQLException | RuntimeException e) {
      Throwable t = e;
      while (t.getCause() != null) {
        t = t.getCause();
      }
      return "error " + t.getMessage();
    }
  }
}
