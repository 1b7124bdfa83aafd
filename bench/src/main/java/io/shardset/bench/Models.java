package io.shardset.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.UnaryOperator;

/** The Calcite models of the benchmark: ShardSet's (X) and Calcite's JDBC adapter's (N). */
public final class Models {
  /** The logical schema every model defines. */
  public static final String SCHEMA = "BENCH";
  /** The tables sharded by consistent hash on CUSTOMER_ID. */
  private static final List<String> BY_CUSTOMER = List.of("ORDERS", "ORDER_LINES");

  private Models() {
  }

  /**
   * The H2 URL of a database file (without its .mv.db suffix). H2 by default answers a query
   * repeated on unchanged data from its previous result; that would measure a cache, not the
   * query, so it is turned off.
   */
  public static String h2Url(Path file) {
    return "jdbc:h2:" + file.toAbsolutePath() + ";OPTIMIZE_REUSE_RESULTS=FALSE";
  }

  /** ShardSet's model over H2 shard URLs (user sa, no password), named s0, s1, ... */
  public static String shardSet(List<String> h2Urls, int poolSize) {
    return shardSetOver(h2Urls.stream().map(Models::h2Endpoint).toList(), poolSize);
  }

  /** An H2 database at {@code url} as H2 creates it: user sa, no password, schema PUBLIC. */
  static JdbcEndpoint h2Endpoint(String url) {
    return new JdbcEndpoint(url, "sa", "", "PUBLIC");
  }

  /** ShardSet's model over the given shards, named s0, s1, ... */
  public static String shardSetOver(List<JdbcEndpoint> shardList, int poolSize) {
    return shardSetOver(shardList, poolSize, List.of());
  }

  /**
   * ShardSet's model over the given shards, named s0, s1, ..., with {@code extraTables}
   * sharded like ORDERS (by consistent hash on CUSTOMER_ID), such as the write workloads'
   * table, which exists on the shards only while the benchmark runs.
   */
  public static String shardSetOver(List<JdbcEndpoint> shardList, int poolSize,
      List<String> extraTables) {
    return shardSetModel(shardList, poolSize, shardSetTables(extraTables));
  }

  /**
   * ShardSet's model over the given shards, named s0, s1, ..., with {@code tables} the JSON
   * array of the operand's table entries (such as w18's TPC-H layout).
   */
  public static String shardSetModel(List<JdbcEndpoint> shardList, int poolSize, String tables) {
    final StringJoiner shards = new StringJoiner(",\n");
    for (int i = 0; i < shardList.size(); i++) {
      shards.add("{\"name\": \"s" + i + "\", " + connection(shardList.get(i))
          + ", \"poolSize\": " + poolSize + "}");
    }
    return "{\"version\": \"1.0\", \"defaultSchema\": \"" + SCHEMA + "\", \"schemas\": [{"
        + "\"name\": \"" + SCHEMA + "\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\","
        + " \"operand\": {\"shards\": [\n" + shards + "],\n\"tables\": " + tables + "}}]}";
  }

  /** The tables of the data set and {@code extraTables}, with how ShardSet spreads them. */
  private static String shardSetTables(List<String> extraTables) {
    final StringJoiner tables = new StringJoiner(",\n", "[", "]");
    for (String table : BY_CUSTOMER) {
      tables.add(byCustomer(table));
    }
    tables.add("{\"name\": \"PRODUCTS\", \"method\": \"duplicated\"}");
    for (String table : extraTables) {
      tables.add(byCustomer(table));
    }
    return tables.toString();
  }

  private static String byCustomer(String table) {
    return "{\"name\": \"" + table + "\", \"method\": \"consistent-hash\","
        + " \"shardKey\": [\"CUSTOMER_ID\"]}";
  }

  /**
   * What a Calcite user writes by hand: one JDBC schema per shard (S0, S1, ...) and, in the
   * default schema, each table as a view that is the UNION ALL of the shards' tables (a
   * duplicated table is read from the first shard). {@code physical} gives a table's name on
   * the shards, such as PostgreSQL's folded lower-case name.
   */
  public static String unionAll(List<JdbcEndpoint> shards, UnaryOperator<String> physical) {
    return unionAll(shards, physical, BY_CUSTOMER, List.of("PRODUCTS"));
  }

  /**
   * {@link #unionAll(List, UnaryOperator)} of any tables: each of {@code sharded} the UNION ALL
   * of the shards' tables, each of {@code duplicated} read from the first shard.
   */
  public static String unionAll(List<JdbcEndpoint> shards, UnaryOperator<String> physical,
      List<String> sharded, List<String> duplicated) {
    final List<String> schemas = new ArrayList<>();
    for (int i = 0; i < shards.size(); i++) {
      schemas.add("{\"name\": \"S" + i + "\", \"type\": \"jdbc\", "
          + connection(shards.get(i)) + "}");
    }
    final StringJoiner views = new StringJoiner(",\n");
    for (String table : sharded) {
      final StringJoiner union = new StringJoiner(" UNION ALL ");
      for (int i = 0; i < shards.size(); i++) {
        union.add("SELECT * FROM \\\"S" + i + "\\\".\\\"" + physical.apply(table) + "\\\"");
      }
      views.add("{\"name\": \"" + table + "\", \"type\": \"view\", \"sql\": \"" + union + "\"}");
    }
    for (String table : duplicated) {
      views.add("{\"name\": \"" + table + "\", \"type\": \"view\","
          + " \"sql\": \"SELECT * FROM \\\"S0\\\".\\\"" + physical.apply(table) + "\\\"\"}");
    }
    schemas.add("{\"name\": \"" + SCHEMA + "\", \"tables\": [\n" + views + "]}");
    return "{\"version\": \"1.0\", \"defaultSchema\": \"" + SCHEMA + "\", \"schemas\": [\n"
        + String.join(",\n", schemas) + "]}";
  }

  /** The JSON fields of a shard's connection, the same in both models. */
  private static String connection(JdbcEndpoint shard) {
    return "\"jdbcUrl\": \"" + shard.url() + "\", \"jdbcUser\": \"" + shard.user()
        + "\", \"jdbcPassword\": \"" + shard.password() + "\", \"jdbcSchema\": \""
        + shard.schema() + "\"";
  }
}
