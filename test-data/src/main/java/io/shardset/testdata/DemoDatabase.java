package io.shardset.testdata;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardTable;
import io.shardset.load.ShardedInserter;
import io.shardset.model.DirectorySpec;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.SubpartitionSpec;
import io.shardset.model.TableSpec;
import io.shardset.util.SuppressForbidden;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Creates the demo's shard databases for a model and fills them with {@link DemoData}, each
 * row placed on its shard by the model's own routing.
 */
@Command(name = "demo-db", mixinStandardHelpOptions = true,
    description = "Creates the demo shard databases of a model and loads the demo data.")
public final class DemoDatabase implements Callable<Integer> {
  private static final Pattern CREATE_TABLE =
      Pattern.compile("CREATE TABLE (\\w+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern SQL_COMMENT_LINE = Pattern.compile("(?m)^--.*$");

  @Spec
  private CommandSpec spec;

  @Option(names = "--model", required = true, description = "The model file (model/demo.json).")
  private File model;

  @Option(names = "--schema", defaultValue = "DEMO", description = "The schema to load.")
  private String schema;

  @Option(names = "--force", description = "Recreate the databases even if they hold data.")
  private boolean force;

  @SuppressForbidden(reason = "the tool's exit code is the process's")
  public static void main(String[] args) {
    System.exit(new CommandLine(new DemoDatabase()).execute(args));
  }

  @Override public Integer call() throws Exception {
    final File modelFile = model.getAbsoluteFile();
    final ShardSetModel parsed = parseModel(modelFile, schema);
    final PrintWriter out = spec.commandLine().getOut();
    if (!force && loaded(parsed)) {
      out.println("Demo data already loaded; use --force to recreate it.");
      return 0;
    }
    final long start = System.nanoTime();
    final List<String> statements = statements(parsed);
    for (ShardSpec shard : parsed.shards()) {
      createTables(shard, statements);
    }
    for (TableSpec table : parsed.tables()) {
      if (table.directory() != null) {
        createDirectory(table);
      }
    }
    load(modelFile, parsed);
    out.printf(Locale.ROOT, "Loaded in %.1f s%n", (System.nanoTime() - start) / 1e9);
    return 0;
  }

  /** The ShardSet operand of the schema, parsed as the schema factory parses it. */
  static ShardSetModel parseModel(File modelFile, String schemaName) throws IOException {
    final JsonNode root = new ObjectMapper().readTree(modelFile);
    for (JsonNode schemaNode : root.path("schemas")) {
      if (schemaName.equals(schemaNode.path("name").asText())) {
        @SuppressWarnings("unchecked")
        final Map<String, Object> operand =
            new ObjectMapper().convertValue(schemaNode.path("operand"), Map.class);
        operand.put("baseDirectory", modelFile.getParentFile());
        return ModelParser.parse(schemaName, operand, System::getenv);
      }
    }
    throw new IllegalArgumentException("model " + modelFile + " has no schema " + schemaName);
  }

  /** Whether every table of the model exists on its shards and holds rows, and every lookup
   * table's directory too (a demo made before a table was added is made again). */
  private static boolean loaded(ShardSetModel model) {
    for (TableSpec table : model.tables()) {
      long rows = 0;
      for (String name : table.shards()) {
        final ShardSpec shard = model.shard(name);
        for (String physical : physicalTables(table)) {
          final long count = count(shard.jdbcUrl(), shard.jdbcUser(), shard.jdbcPassword(),
              physical);
          if (count < 0) {
            return false;
          }
          rows += count;
        }
      }
      final DirectorySpec directory = table.directory();
      if (rows == 0 || directory != null && count(directory.jdbcUrl(), directory.jdbcUser(),
          directory.jdbcPassword(), directory.table()) <= 0) {
        return false;
      }
    }
    return true;
  }

  /** The tables that hold a table's rows on each shard: its subpartition tables, if it has
   * any, else its physical table. */
  private static List<String> physicalTables(TableSpec table) {
    final SubpartitionSpec sub = table.subpartitions();
    if (sub == null) {
      return List.of(table.physicalName());
    }
    final List<String> tables = new ArrayList<>();
    for (int i = 0; i < sub.ranges().size(); i++) {
      tables.add(sub.physicalName(i));
    }
    return tables;
  }

  /** The rows of a table, or -1 if it cannot be read. */
  private static long count(String url, String user, String password, String table) {
    try (Connection c = DriverManager.getConnection(url, user, password);
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      return rs.next() ? rs.getLong(1) : -1;
    } catch (SQLException e) {
      return -1;
    }
  }

  /** Creates a lookup table's directory table and enters every demo tenant in it. */
  private static void createDirectory(TableSpec table) throws SQLException {
    final DirectorySpec directory = table.directory();
    try (Connection c = DriverManager.getConnection(directory.jdbcUrl(), directory.jdbcUser(),
        directory.jdbcPassword()); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + directory.table());
      s.execute("CREATE TABLE " + directory.table() + " (" + directory.keyColumn()
          + " BIGINT PRIMARY KEY, " + directory.shardColumn() + " VARCHAR(40) NOT NULL)");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + directory.table()
          + " VALUES (?, ?)")) {
        for (Object[] entry : DemoData.tenantDirectory(table.shards())) {
          insert.setObject(1, entry[0]);
          insert.setObject(2, entry[1]);
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
  }

  private static void createTables(ShardSpec shard, List<String> statements)
      throws SQLException {
    try (Connection c = connect(shard); Statement s = c.createStatement()) {
      // Only the demo's own tables, and in portable SQL: a shard may be a PostgreSQL
      // database that holds other things too.
      for (String table : createdTables(statements)) {
        s.execute("DROP TABLE IF EXISTS " + table);
      }
      for (String ddl : statements) {
        s.execute(ddl);
      }
    }
  }

  /** The statements of the demo schema, each CREATE TABLE of a table the model subpartitions
   * repeated for each of its subpartition tables. */
  private static List<String> statements(ShardSetModel model) throws IOException {
    final List<String> result = new ArrayList<>();
    for (String statement : statements()) {
      result.addAll(forSubpartitions(statement, model.tables()));
    }
    return result;
  }

  /** A CREATE TABLE of a subpartitioned table as one per subpartition table; any other
   * statement as it is. */
  static List<String> forSubpartitions(String statement, List<TableSpec> tables) {
    final Matcher m = CREATE_TABLE.matcher(statement);
    if (!m.lookingAt()) {
      return List.of(statement);
    }
    for (TableSpec table : tables) {
      final SubpartitionSpec sub = table.subpartitions();
      if (sub != null && table.physicalName().equalsIgnoreCase(m.group(1))) {
        final List<String> result = new ArrayList<>();
        for (int i = 0; i < sub.ranges().size(); i++) {
          result.add("CREATE TABLE " + sub.physicalName(i) + statement.substring(m.end()));
        }
        return result;
      }
    }
    return List.of(statement);
  }

  private static List<String> statements() throws IOException {
    try (InputStream in = DemoDatabase.class.getResourceAsStream("demo-schema.sql")) {
      final String text = SQL_COMMENT_LINE.matcher(
          new String(in.readAllBytes(), StandardCharsets.UTF_8)).replaceAll("");
      final List<String> result = new ArrayList<>();
      for (String statement : text.split(";")) {
        if (!statement.isBlank()) {
          result.add(statement.trim());
        }
      }
      return result;
    }
  }

  /** The tables the statements create: the physical tables, subpartition tables included. */
  static List<String> createdTables(List<String> statements) {
    final List<String> tables = new ArrayList<>();
    for (String statement : statements) {
      final Matcher m = CREATE_TABLE.matcher(statement);
      if (m.lookingAt()) {
        tables.add(m.group(1));
      }
    }
    return tables;
  }

  private static Connection connect(ShardSpec shard) throws SQLException {
    return DriverManager.getConnection(shard.jdbcUrl(), shard.jdbcUser(),
        shard.jdbcPassword());
  }

  /** Loads every demo table of the model through ShardSet's own routing. */
  private void load(File modelFile, ShardSetModel model) throws SQLException {
    final DemoData data = DemoData.standard();
    final Properties info = new Properties();
    info.setProperty("model", modelFile.getPath());
    try (Connection connection = DriverManager.getConnection("jdbc:calcite:", info)) {
      final SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
      final SchemaPlus sub = root.subSchemas().get(schema);
      if (sub == null) {
        throw new IllegalArgumentException("model has no schema " + schema);
      }
      final ShardSchema shardSchema = sub.unwrap(ShardSchema.class);
      final List<String> modelTables = model.tables().stream().map(TableSpec::name).toList();
      for (String name : DemoData.tables()) {
        if (!modelTables.contains(name)) {
          continue; // a model of some of the demo tables (the PostgreSQL demo)
        }
        final ShardTable table = shardSchema.table(name);
        final List<Object[]> rows = data.rows(name);
        try (ShardedInserter inserter = ShardedInserter.open(table.sharded(), 1_000)) {
          rows.forEach(inserter::insert);
          inserter.close();
          spec.commandLine().getOut().println(
              summary(table, rows.size(), inserter.rowsPerShard()));
        }
      }
    }
  }

  private static String summary(ShardTable table, int rows, long[] perShard) {
    final StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-10s %,8d rows:",
        table.spec().name(), rows));
    for (int i = 0; i < perShard.length; i++) {
      b.append(String.format(Locale.ROOT, " %s=%,d", table.shardName(i), perShard[i]));
    }
    return b.toString();
  }
}
