package io.shardset.calcite;

import io.shardset.model.ColumnInfo;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;
import io.shardset.model.SubpartitionSpec;
import io.shardset.model.TableSpec;
import io.shardset.testing.LongTest;
import io.shardset.testing.MariaDbServer;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The golden files' declared shards plan as real ones do: each file's tables are created on
 * real H2, PostgreSQL and MariaDB databases (the products its shard URLs name), the schema is
 * built from their metadata as a model file's would be, and every case must plan exactly as
 * the file records. This keeps {@link DeclaredShardMetadata} and {@link RecordedProducts}
 * honest; it needs the local PostgreSQL and MariaDB servers and skips without them.
 */
@LongTest
class GoldenPlanRealShardsTest {
  private static final AtomicInteger H2_DATABASES = new AtomicInteger();

  static Stream<String> files() throws IOException {
    return GoldenPlanTest.files();
  }

  @ParameterizedTest(name = "{0}") @MethodSource("files")
  void realShardsPlanAsRecorded(String name) throws IOException, SQLException {
    final GoldenFile file = GoldenFile.parse(Files.readString(
        GoldenPlanTest.DIRECTORY.resolve(name), StandardCharsets.UTF_8));
    final Map<String, Object> operand = GoldenPlanner.operand(file);
    final ShardSetModel declared = ModelParser.parse(GoldenPlanner.SCHEMA, operand, n -> null);
    final List<String> postgres = new ArrayList<>();
    final List<String> mariaDb = new ArrayList<>();
    try {
      for (Map<String, Object> shard : list(operand, "shards")) {
        final RecordedProducts.Product product =
            RecordedProducts.Product.ofUrl((String) shard.get("jdbcUrl"));
        final String url = database(product, postgres, mariaDb);
        shard.put("jdbcUrl", url);
        shard.put("jdbcUser", user(product));
        shard.put("jdbcPassword", "");
        createTables(declared, (String) shard.get("name"), file.columns(), product, url);
      }
      for (Map<String, Object> table : list(operand, "tables")) {
        if (table.get("directory") instanceof Map<?, ?>) {
          table.put("directory", directory(declared.tables().stream()
              .filter(spec -> spec.name().equals(table.get("name"))).findFirst()
              .orElseThrow()));
        }
      }
      final ShardSetModel real = ModelParser.parse(GoldenPlanner.SCHEMA, operand, n -> null);
      final List<GoldenFile.Case> planned = new ArrayList<>();
      try (GoldenPlanner planner = new GoldenPlanner(ShardSetRuntime.get().schema(real))) {
        for (GoldenFile.Case c : file.cases()) {
          planned.add(planner.plan(c));
        }
      }
      assertEquals("", GoldenPlanTest.differences(file.cases(), planned),
          name + ": real shards plan otherwise than the declared ones");
    } finally {
      if (!postgres.isEmpty()) {
        PostgresServer.drop(postgres);
      }
      if (!mariaDb.isEmpty()) {
        MariaDbServer.drop(mariaDb);
      }
    }
  }

  /** A new empty database of the product. */
  private static String database(RecordedProducts.Product product, List<String> postgres,
      List<String> mariaDb) throws SQLException {
    switch (product) {
    case POSTGRESQL:
      PostgresServer.require();
      final String pg = PostgresServer.createDatabases("golden", 1).get(0);
      postgres.add(pg);
      return PostgresServer.url(pg);
    case MARIADB:
      MariaDbServer.require();
      final String maria = MariaDbServer.createDatabases("golden", 1).get(0);
      mariaDb.add(maria);
      return MariaDbServer.url(maria);
    default:
      return "jdbc:h2:mem:golden_" + H2_DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1";
    }
  }

  private static String user(RecordedProducts.Product product) {
    switch (product) {
    case POSTGRESQL:
      return PostgresServer.USER;
    case MARIADB:
      return MariaDbServer.USER;
    default:
      return "sa";
    }
  }

  /** Creates, with unquoted names, each physical table the shard holds. */
  private static void createTables(ShardSetModel model, String shard,
      Map<String, List<ColumnInfo>> columns, RecordedProducts.Product product, String url)
      throws SQLException {
    try (Connection c = DriverManager.getConnection(url, user(product), "");
         Statement s = c.createStatement()) {
      for (TableSpec table : model.tables()) {
        if (!table.shards().contains(shard)) {
          continue;
        }
        final String definition = columns.get(table.name()).stream()
            .map(column -> column.name() + " " + type(column, product)
                + (column.nullable() ? "" : " NOT NULL"))
            .collect(Collectors.joining(", ", " (", ")"));
        final SubpartitionSpec subpartitions = table.subpartitions();
        if (subpartitions == null) {
          s.execute("CREATE TABLE " + table.physicalName() + definition);
        } else {
          for (int i = 0; i < subpartitions.ranges().size(); i++) {
            s.execute("CREATE TABLE " + subpartitions.physicalName(i) + definition);
          }
        }
      }
    }
  }

  private static String type(ColumnInfo column, RecordedProducts.Product product) {
    final String name = product == RecordedProducts.Product.POSTGRESQL
        && column.typeName().equals("DOUBLE") ? "DOUBLE PRECISION" : column.typeName();
    if (column.precision() == 0) {
      return name;
    }
    return name + "(" + column.precision()
        + (column.scale() == 0 ? "" : ", " + column.scale()) + ")";
  }

  /** An H2 directory database with an empty directory table for a lookup table. */
  private static Map<String, Object> directory(TableSpec table) throws SQLException {
    final String url = "jdbc:h2:mem:golden_directory_" + H2_DATABASES.incrementAndGet()
        + ";DB_CLOSE_DELAY=-1";
    final String key = table.shardKey().get(0);
    try (Connection c = DriverManager.getConnection(url, "sa", "");
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE SHARD_DIRECTORY (" + key + " VARCHAR(64) PRIMARY KEY,"
          + " SHARD_NAME VARCHAR(64) NOT NULL)");
    }
    final Map<String, Object> directory = new HashMap<>();
    directory.put("jdbcUrl", url);
    directory.put("jdbcUser", "sa");
    directory.put("jdbcPassword", "");
    return directory;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> list(Map<String, Object> operand, String key) {
    return (List<Map<String, Object>>) operand.get(key);
  }
}
