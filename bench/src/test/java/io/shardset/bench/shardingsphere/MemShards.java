package io.shardset.bench.shardingsphere;

import io.shardset.bench.BenchData;
import io.shardset.bench.Models;
import io.shardset.calcite.ShardSchema;

import org.apache.calcite.jdbc.CalciteConnection;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** Four in-memory H2 shards with the benchmark's tables, and ShardSet over them. */
final class MemShards {
  static final int COUNT = 4;

  private MemShards() {
  }

  /** Creates the empty shards, named by {@code prefix}, and returns their URLs. */
  static List<String> create(String prefix) throws SQLException {
    final List<String> urls = new ArrayList<>();
    for (int i = 0; i < COUNT; i++) {
      final String url = "jdbc:h2:mem:" + prefix + "-s" + i + ";DB_CLOSE_DELAY=-1";
      try (Connection c = DriverManager.getConnection(url, "sa", "");
           Statement s = c.createStatement()) {
        for (String ddl : BenchData.DDL) {
          s.execute(ddl);
        }
      }
      urls.add(url);
    }
    return urls;
  }

  /** ShardSet's schema over the shards, by the benchmark's own model; close its connection. */
  static Connection shardSet(List<String> urls) throws Exception {
    final Path model = Files.createTempFile("shardset-bench", ".json");
    try {
      // A connection per table being loaded at once.
      Files.writeString(model, Models.shardSet(urls, 3));
      final Properties info = new Properties();
      info.setProperty("model", model.toString());
      return DriverManager.getConnection("jdbc:calcite:", info);
    } finally {
      Files.delete(model);
    }
  }

  static ShardSchema schema(Connection shardSet) throws SQLException {
    return shardSet.unwrap(CalciteConnection.class).getRootSchema().subSchemas()
        .get(Models.SCHEMA).unwrap(ShardSchema.class);
  }
}
