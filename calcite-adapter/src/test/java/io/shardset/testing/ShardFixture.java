package io.shardset.testing;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardTable;
import io.shardset.load.ShardedInserter;
import io.shardset.model.TestOperands;
import io.shardset.routing.ShardRouter;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A set of counted shards (H2, PostgreSQL or both, see {@link Backend}) plus one unsharded
 * database (the oracle) holding the same tables and rows, and helpers to query both and
 * compare.
 *
 * <p>The fixture's models keep their transactions' decision log in a folder of the fixture's
 * own and recover only when a test asks: the shards record every statement they receive, and
 * a recovery pass (at a coordinator's start when its log exists, then periodically) would
 * add its own ({@code XA RECOVER}, {@code INFORMATION_SCHEMA.IN_DOUBT}, ...) to a query's,
 * whenever it happened to run. By default a model with no file keeps its log in the user's
 * home, named after its shards' URLs, which repeat from one test JVM to the next.
 */
public final class ShardFixture implements AutoCloseable {
  /** The schema name the fixture's models use. */
  public static final String SCHEMA = "S";
  private static final AtomicInteger GROUPS = new AtomicInteger();
  /** The longest recovery interval a model may set: no pass runs while a test does. */
  private static final int NO_BACKGROUND_RECOVERY_SECONDS = 86_400;

  private final String group;
  private final Backend.Databases databases;
  private final CountingShards shards;
  private final Connection oracle;
  /** Where the fixture's models keep their decision log, which a write across shards
   * creates. */
  private final Path logFolder;

  private ShardFixture(String group, Backend.Databases databases, CountingShards shards,
      Connection oracle, Path logFolder) {
    this.group = group;
    this.databases = databases;
    this.shards = shards;
    this.oracle = oracle;
    this.logFolder = logFolder;
  }

  /** Creates {@code count} H2 shards {@code s0..} and an H2 oracle, each with the tables of
   * {@code ddl}. */
  public static ShardFixture h2(int count, String... ddl) {
    try {
      return create(Backend.H2, count, ddl);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Creates {@code count} shards {@code s0..} and an oracle on a backend, each with the tables
   * of {@code ddl}; skips the calling test if the backend's server cannot be reached.
   */
  public static ShardFixture create(Backend backend, int count, String... ddl)
      throws SQLException {
    final String group = "fx" + GROUPS.incrementAndGet();
    final Backend.Databases databases = backend.create(group, count);
    Connection oracle = null;
    try {
      final CountingShards shards = CountingShards.of(databases.shards());
      shards.executeOnAll(ddl);
      oracle = databases.connectOracle();
      try (Statement s = oracle.createStatement()) {
        for (String sql : ddl) {
          s.execute(sql);
        }
      }
      final Path logFolder = Files.createTempDirectory("shardset-fixture-log");
      CountingDriver.register(group, shards);
      return new ShardFixture(group, databases, shards, oracle, logFolder);
    } catch (IOException e) {
      oracle.close();
      databases.close();
      throw new UncheckedIOException(e);
    } catch (SQLException | RuntimeException e) {
      if (oracle != null) {
        oracle.close();
      }
      databases.close();
      throw e;
    }
  }

  public CountingShards shards() {
    return shards;
  }

  /** The model's {@code shards} array for this fixture's shards. */
  public String shardsJson() {
    return shardsJson(Map.of());
  }

  /** The model's {@code shards} array, each shard in the shardspace the map gives it (the
   * default one if none). */
  public String shardsJson(Map<String, String> shardspaces) {
    return shardsJson(shardspaces, "");
  }

  /**
   * The model's {@code shards} array, each shard in the shardspace the map gives it (the
   * default one if none), with {@code shardEntries} (say {@code "lockTimeout": 500}) added to
   * every shard.
   */
  public String shardsJson(Map<String, String> shardspaces, String shardEntries) {
    final StringJoiner j = new StringJoiner(",\n      ", "[\n      ", "]");
    for (String name : shards.names()) {
      final String space = shardspaces.get(name);
      j.add("{\"name\": \"" + name + "\", \"jdbcUrl\": \"" + CountingDriver.url(group, name)
          + "\", \"jdbcUser\": \"sa\", \"jdbcPassword\": \"\""
          + (space == null ? "" : ", \"shardspace\": \"" + space + "\"")
          + (shardEntries.isEmpty() ? "" : ", " + shardEntries) + "}");
    }
    return j.toString();
  }

  /**
   * A whole model as {@link #model(String)}, with {@code shardEntries} added to every shard
   * and {@code transactionEntries} (say {@code "deadlockCheckMillis": 100}) to the fixture's
   * {@code transactions} object.
   */
  public String model(String operandEntries, String shardEntries, String transactionEntries) {
    return "{\"version\": \"1.0\", \"defaultSchema\": \"" + SCHEMA + "\", \"schemas\": [{\n"
        + "  \"name\": \"" + SCHEMA + "\", \"type\": \"custom\",\n"
        + "  \"factory\": \"io.shardset.calcite.ShardSchemaFactory\",\n"
        + "  \"operand\": {\"shards\": " + shardsJson(Map.of(), shardEntries) + ",\n"
        + "\"transactions\": {\"log\": \"" + logFolder + "\", \"recoveryIntervalSeconds\": "
        + NO_BACKGROUND_RECOVERY_SECONDS
        + (transactionEntries.isEmpty() ? "" : ", " + transactionEntries) + "},\n"
        + operandEntries + "}}]}";
  }

  /**
   * A whole model whose schema {@value #SCHEMA} has these shards and operand entries, and
   * the fixture's decision log without background recovery unless the entries name
   * {@code transactions} themselves.
   */
  public String model(String operandEntries) {
    return model(operandEntries, Map.of());
  }

  /** A whole model as {@link #model(String)}, with shards in the shardspaces the map gives. */
  public String model(String operandEntries, Map<String, String> shardspaces) {
    return "{\"version\": \"1.0\", \"defaultSchema\": \"" + SCHEMA + "\", \"schemas\": [{\n"
        + "  \"name\": \"" + SCHEMA + "\", \"type\": \"custom\",\n"
        + "  \"factory\": \"io.shardset.calcite.ShardSchemaFactory\",\n"
        + "  \"operand\": {\"shards\": " + shardsJson(shardspaces) + ",\n"
        + (operandEntries.contains("\"transactions\"") ? "" : transactionsJson() + ",\n")
        + operandEntries + "}}]}";
  }

  /** The model's {@code transactions} entry: the fixture's log, recovered only when asked. */
  private String transactionsJson() {
    return "\"transactions\": {\"log\": \"" + logFolder + "\", \"recoveryIntervalSeconds\": "
        + NO_BACKGROUND_RECOVERY_SECONDS + "}";
  }

  /** The operand of a model's first schema, as a schema factory is given it. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> operand(String model) {
    final Map<String, Object> root = TestOperands.operand(model);
    return (Map<String, Object>)
        ((List<Map<String, Object>>) root.get("schemas")).get(0).get("operand");
  }

  /** Opens a {@code jdbc:calcite:} connection on an inline model. */
  public static Connection connect(String model) throws SQLException {
    return Connector.CALCITE.open(model);
  }

  /** Starts a fluent assertion on a query sent through a ShardSet connection on this
   * fixture's shards. */
  public QueryAssert sql(Connection connection, String sql) {
    return QueryAssert.of(this, connection, sql);
  }

  /** The ShardSet schema of a connection. */
  public static ShardSchema schema(Connection connection) throws SQLException {
    final SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
    return Objects.requireNonNull(root.subSchemas().get(SCHEMA), SCHEMA)
        .unwrap(ShardSchema.class);
  }

  /** Rows {@code (k, 'v' + k)} for {@code k} from 1 to {@code count}: a numbered table's. */
  public static List<Object[]> numbered(int count) {
    final List<Object[]> rows = new ArrayList<>();
    for (long k = 1; k <= count; k++) {
      rows.add(new Object[] {k, "v" + k});
    }
    return rows;
  }

  /**
   * Loads {@link #numbered} rows into {@code table} of the model with {@code tables}, and
   * returns the table's router.
   */
  public ShardRouter loadNumbered(String tables, String table, int count) throws SQLException {
    try (Connection connection = connect(model(tables))) {
      load(connection, table, numbered(count));
      return schema(connection).table(table).router();
    }
  }

  /** Writes rows through ShardSet's routing to the shards, and to the oracle. */
  public void load(Connection connection, String table, List<Object[]> rows)
      throws SQLException {
    load(connection, table, table, rows);
  }

  /**
   * Writes rows through ShardSet's routing to the shards of a logical table, and to the
   * oracle's table {@code oracleTable} (SQL text, quoted where it needs to be).
   */
  public void load(Connection connection, String table, String oracleTable,
      List<Object[]> rows) throws SQLException {
    final ShardTable shardTable = schema(connection).table(table);
    try (ShardedInserter inserter = ShardedInserter.open(shardTable.sharded(), 500)) {
      rows.forEach(inserter::insert);
    }
    insert(oracle, oracleTable, rows);
    shards.resetCounters();
  }

  /** Inserts rows into a table of one database, in one batch. */
  public static void insert(Connection connection, String table, List<Object[]> rows)
      throws SQLException {
    final String marks = String.join(", ", Collections.nCopies(rows.get(0).length, "?"));
    try (PreparedStatement p =
             connection.prepareStatement("INSERT INTO " + table + " VALUES (" + marks + ")")) {
      for (Object[] row : rows) {
        for (int i = 0; i < row.length; i++) {
          p.setObject(i + 1, row[i]);
        }
        p.addBatch();
      }
      p.executeBatch();
    }
  }

  /** The unsharded oracle database, for tests that read its results themselves. */
  public Connection oracle() {
    return oracle;
  }

  /** The rows of a query on the oracle, each as a canonical string. */
  public List<String> oracleRows(String sql) throws SQLException {
    return rows(oracle, sql);
  }

  /** The rows of a query on any connection, each as a canonical string. */
  public static List<String> rows(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return rows(rs);
    }
  }

  /** The rows of a result set, each as a canonical string. */
  public static List<String> rows(ResultSet rs) throws SQLException {
    final ResultSetMetaData md = rs.getMetaData();
    final List<String> rows = new ArrayList<>();
    while (rs.next()) {
      final StringJoiner row = new StringJoiner(", ");
      for (int i = 1; i <= md.getColumnCount(); i++) {
        row.add(canonical(rs.getObject(i)));
      }
      rows.add(row.toString());
    }
    return rows;
  }

  /** The rows in sorted order, for comparing results whose order SQL leaves open. */
  public static List<String> sorted(List<String> rows) {
    final List<String> copy = new ArrayList<>(rows);
    Collections.sort(copy);
    return copy;
  }

  /** One value in a form that does not depend on which database produced it. */
  private static String canonical(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof BigDecimal d) {
      return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }
    if (value instanceof Byte || value instanceof Short || value instanceof Integer
        || value instanceof Long) {
      return Long.toString(((Number) value).longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      return canonical(BigDecimal.valueOf(((Number) value).doubleValue()));
    }
    return value.toString();
  }

  /** The shards that executed at least one statement since the last reset. */
  public Set<String> shardsReached() {
    final Set<String> reached = new LinkedHashSet<>();
    for (String name : shards.names()) {
      if (shards.statementsExecuted(name) > 0) {
        reached.add(name);
      }
    }
    return reached;
  }

  /** Runs a statement to the end and returns the shards that received a query, sorted. */
  public Set<String> reached(PreparedStatement statement) throws SQLException {
    shards.resetCounters();
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
    return new TreeSet<>(shardsReached());
  }

  @Override public void close() throws SQLException {
    CountingDriver.unregister(group);
    oracle.close();
    shards.close();
    databases.close();
    deleteLogFolder();
  }

  /** Deletes the decision log folder; a log a pool still holds open is left to the OS. */
  private void deleteLogFolder() {
    try (Stream<Path> paths = Files.walk(logFolder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + logFolder, e);
    }
  }
}
