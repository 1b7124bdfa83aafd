package io.shardset.testdata;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import sqlline.SqlLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code sqlline/sqlline} prints without a terminal ({@code echo "EXPLAIN ..." |
 * sqlline/sqlline}): sqlline, in this JVM, with the width the launcher gives it there, prints
 * a whole plan, the long SQL each shard receives included.
 */
class LauncherOutputTest {
  private static final Path LAUNCHER = Path.of("..", "sqlline", "sqlline");
  /** The width option the launcher passes when its standard output is not a terminal. */
  private static final Pattern WIDTH = Pattern.compile("--maxWidth=\\D*(\\d+)");

  @TempDir Path folder;
  private final List<Connection> shards = new ArrayList<>();

  @AfterEach void closeShards() throws SQLException {
    for (Connection c : shards) {
      try (Statement s = c.createStatement()) {
        s.execute("SHUTDOWN");
      }
      c.close();
    }
  }

  @Test void anExplainThroughAPipeKeepsTheWholePlan() throws Exception {
    final Matcher width = WIDTH.matcher(Files.readString(LAUNCHER, StandardCharsets.UTF_8));
    assertTrue(width.find(), "no --maxWidth in " + LAUNCHER);
    final Path model = model();
    final String url = "jdbc:shardset:model=" + model;
    // Wide enough that its pushed SQL is longer than any terminal line.
    final String explain = "EXPLAIN PLAN FOR SELECT SHIPPING_ADDRESS_SECOND_LINE,"
        + " SHIPPING_ADDRESS_FIRST_LINE, ID FROM ORDERS WHERE CUSTOMER_REFERENCE_NUMBER"
        + " IN ('C-42', 'C-43') AND SHIPPING_ADDRESS_SECOND_LINE LIKE '%Street%'"
        + " ORDER BY SHIPPING_ADDRESS_FIRST_LINE";
    final String plan;
    try (Connection c = DriverManager.getConnection(url);
         Statement s = c.createStatement(); ResultSet rs = s.executeQuery(explain)) {
      assertTrue(rs.next());
      plan = rs.getString(1).strip();
    }
    assertTrue(plan.length() > 250 && plan.contains("sql=["), plan);

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final SqlLine sqlLine = new SqlLine();
    sqlLine.setOutputStream(out);
    sqlLine.setErrorStream(out);
    final SqlLine.Status status = sqlLine.begin(new String[] {"-u", url, "-n", "admin",
        "-p", "admin", "--isolation=TRANSACTION_NONE", "--maxWidth=" + width.group(1)},
        new ByteArrayInputStream((explain + ";\n").getBytes(StandardCharsets.UTF_8)), false);
    final String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(SqlLine.Status.OK, status, printed);
    for (String line : plan.split("\n")) {
      assertTrue(printed.contains(line.strip()), () -> "missing: " + line + "\nin:\n" + printed);
    }
  }

  /** Two H2 shards of one table ORDERS with long column names, and a model file over them. */
  private Path model() throws SQLException, IOException {
    final List<String> specs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      final String url = "jdbc:h2:mem:launcher_s" + i + "_" + ProcessHandle.current().pid()
          + ";DB_CLOSE_DELAY=-1";
      final Connection c = DriverManager.getConnection(url, "sa", "");
      shards.add(c);
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY,"
            + " CUSTOMER_REFERENCE_NUMBER VARCHAR(20), SHIPPING_ADDRESS_FIRST_LINE VARCHAR(80),"
            + " SHIPPING_ADDRESS_SECOND_LINE VARCHAR(80))");
      }
      specs.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + url
          + "\", \"jdbcUser\": \"sa\", \"jdbcPassword\": \"\"}");
    }
    final Path model = folder.resolve("model.json");
    Files.writeString(model, "{\"version\": \"1.0\", \"defaultSchema\": \"S\", \"schemas\": [{"
        + "\"name\": \"S\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {\"shards\": ["
        + String.join(", ", specs) + "], \"tables\": [{\"name\": \"ORDERS\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]}}]}",
        StandardCharsets.UTF_8);
    return model;
  }
}
