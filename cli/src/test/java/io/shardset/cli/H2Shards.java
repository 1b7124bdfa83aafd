package io.shardset.cli;

import io.shardset.calcite.ShardTable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * In-memory H2 shards {@code s0..} with the same tables, and a model file over them in a
 * folder, for tests that load through the model.
 */
final class H2Shards implements AutoCloseable {
  static final String SCHEMA = "S";
  private static final AtomicInteger GROUPS = new AtomicInteger();

  private final String group;
  private final int count;
  private final List<Connection> keepAlive = new ArrayList<>();
  private final Path modelFile;
  private Connection calcite;

  private H2Shards(String group, int count, Path modelFile) {
    this.group = group;
    this.count = count;
    this.modelFile = modelFile;
  }

  /**
   * Creates the shards with the tables of {@code ddl} and writes {@code model.json} into
   * {@code folder}, its operand holding the shards and {@code operandEntries}.
   */
  static H2Shards create(Path folder, int count, String operandEntries, String... ddl)
      throws SQLException, IOException {
    return create(folder, List.of(), count, operandEntries, ddl);
  }

  /**
   * Creates the shards as {@link #create(Path, int, String, String...)} does, shard i in
   * shardspace {@code shardspaces.get(i)} (the default one where the list has no entry).
   */
  static H2Shards create(Path folder, List<String> shardspaces, int count,
      String operandEntries, String... ddl) throws SQLException, IOException {
    final String group = "load" + GROUPS.incrementAndGet();
    final H2Shards shards = new H2Shards(group, count, folder.resolve("model.json"));
    final StringJoiner json = new StringJoiner(",\n", "[\n", "]");
    for (int i = 0; i < count; i++) {
      final Connection c = DriverManager.getConnection(shards.url(i), "sa", "");
      shards.keepAlive.add(c);
      try (Statement s = c.createStatement()) {
        for (String sql : ddl) {
          s.execute(sql);
        }
      }
      json.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + shards.url(i)
          + "\", \"jdbcUser\": \"sa\", \"jdbcPassword\": \"\""
          + (i < shardspaces.size() ? ", \"shardspace\": \"" + shardspaces.get(i) + "\"" : "")
          + "}");
    }
    Files.writeString(shards.modelFile, "{\"version\": \"1.0\", \"defaultSchema\": \"" + SCHEMA
        + "\", \"schemas\": [{\"name\": \"" + SCHEMA + "\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {"
        + "\"shards\": " + json + ", " + operandEntries + "}}]}", StandardCharsets.UTF_8);
    return shards;
  }

  String url(int shard) {
    return "jdbc:h2:mem:" + group + "_s" + shard + ";DB_CLOSE_DELAY=-1";
  }

  Path modelFile() {
    return modelFile;
  }

  int count() {
    return count;
  }

  /** The table as ShardSet sees it through the model. */
  ShardTable table(String name) throws SQLException {
    if (calcite == null) {
      calcite = ShardSchemas.connect(modelFile.toFile());
    }
    return ShardSchemas.find(calcite, SCHEMA).table(name);
  }

  /** Runs a statement on one shard. */
  void execute(int shard, String sql) throws SQLException {
    try (Statement s = keepAlive.get(shard).createStatement()) {
      s.execute(sql);
    }
  }

  /** The rows of a query on one shard, each as its values joined by "|". */
  List<String> rows(int shard, String sql) throws SQLException {
    try (Statement s = keepAlive.get(shard).createStatement();
         ResultSet rs = s.executeQuery(sql)) {
      return rows(rs);
    }
  }

  /** The remaining rows of a result set, each as its values joined by "|". */
  static List<String> rows(ResultSet rs) throws SQLException {
    final List<String> rows = new ArrayList<>();
    final ResultSetMetaData md = rs.getMetaData();
    while (rs.next()) {
      final StringJoiner row = new StringJoiner("|");
      for (int i = 1; i <= md.getColumnCount(); i++) {
        row.add(String.valueOf(rs.getObject(i)));
      }
      rows.add(row.toString());
    }
    return rows;
  }

  @Override public void close() throws SQLException {
    if (calcite != null) {
      calcite.close();
    }
    for (Connection c : keepAlive) {
      try (Statement s = c.createStatement()) {
        s.execute("SHUTDOWN");
      }
      c.close();
    }
  }
}
