package io.shardset.bench.shardingsphere;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.function.Function;

/**
 * The ShardingSphere-JDBC configuration of the benchmark's tables over a list of shards, as
 * the YAML that {@code YamlShardingSphereDataSourceFactory} reads: data sources s0, s1, ...
 * (HikariCP pools), ORDERS and ORDER_LINES sharded by CUSTOMER_ID with
 * {@link ChunkShardingAlgorithm} and bound together (co-located, so their join stays inside
 * each shard), and PRODUCTS broadcast (a full copy on every shard).
 */
public final class ShardingSphereYaml {
  /** The logical database name ShardingSphere reports. */
  public static final String DATABASE = "bench";
  private static final List<String> SHARDED = List.of("ORDERS", "ORDER_LINES");
  private static final String BROADCAST = "PRODUCTS";
  private static final String SHARD_KEY = "CUSTOMER_ID";
  /** The specification's default number of chunks per shard, which the benchmark model uses. */
  private static final int CHUNKS_PER_SHARD = 120;

  private ShardingSphereYaml() {
  }

  /** The data source name of shard {@code i}. */
  public static String dataSourceName(int i) {
    return "s" + i;
  }

  /** The number of chunks of a model over {@code shards} shards that does not set "chunks". */
  public static int defaultChunks(int shards) {
    return CHUNKS_PER_SHARD * shards;
  }

  /** The configuration over these shard URLs, all with one user and password. */
  public static String of(List<String> shardUrls, String user, String password, int poolSize) {
    return of(shardUrls, user, password, poolSize, List.of());
  }

  /**
   * The configuration over these shard URLs, all with one user and password, with
   * {@code extraTables} sharded by CUSTOMER_ID like ORDERS but outside its binding group (such
   * as the write workloads' table, which exists on the shards only while the benchmark runs).
   */
  public static String of(List<String> shardUrls, String user, String password, int poolSize,
      List<String> extraTables) {
    final List<ShardedTable> sharded = new ArrayList<>();
    for (String table : SHARDED) {
      sharded.add(new ShardedTable(table, SHARD_KEY));
    }
    for (String table : extraTables) {
      sharded.add(new ShardedTable(table, SHARD_KEY));
    }
    return of(shardUrls, user, password, poolSize, sharded, SHARDED, List.of(BROADCAST));
  }

  /** A table sharded by ShardSet's consistent hash of one column. */
  public record ShardedTable(String table, String column) {
    public ShardedTable {
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(column, "column");
    }
  }

  /**
   * The configuration of any tables over these shard URLs, all with one user and password:
   * {@code sharded} by {@link ChunkShardingAlgorithm} on their columns, those of
   * {@code binding} (if two or more) bound together, and {@code broadcast} copied on every
   * shard. Names are given as spelled unquoted; they are configured as the shards spell them.
   */
  public static String of(List<String> shardUrls, String user, String password, int poolSize,
      List<ShardedTable> sharded, List<String> binding, List<String> broadcast) {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (shardUrls.isEmpty()) {
      throw new IllegalArgumentException("no shards");
    }
    final Function<String, String> name = physicalSpelling(shardUrls.get(0));
    final StringBuilder b = new StringBuilder("databaseName: " + DATABASE + "\n");
    b.append("dataSources:\n");
    final StringJoiner names = new StringJoiner(",");
    for (int i = 0; i < shardUrls.size(); i++) {
      names.add(dataSourceName(i));
      b.append("  ").append(dataSourceName(i)).append(":\n")
          .append("    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n")
          .append("    jdbcUrl: ").append(quoted(spelledForShardingSphere(shardUrls.get(i))))
          .append('\n')
          .append("    username: ").append(quoted(user)).append('\n')
          .append("    password: ").append(quoted(password)).append('\n')
          .append("    maximumPoolSize: ").append(poolSize).append('\n');
    }
    b.append("rules:\n- !SHARDING\n  tables:\n");
    for (ShardedTable spec : sharded) {
      final String table = name.apply(spec.table());
      final StringJoiner nodes = new StringJoiner(",");
      for (int i = 0; i < shardUrls.size(); i++) {
        nodes.add(dataSourceName(i) + "." + table);
      }
      b.append("    ").append(table).append(":\n")
          .append("      actualDataNodes: ").append(nodes).append('\n')
          .append("      databaseStrategy:\n        standard:\n")
          .append("          shardingColumn: ").append(name.apply(spec.column())).append('\n')
          .append("          shardingAlgorithmName: chunk\n")
          .append("      tableStrategy:\n        none:\n");
    }
    if (binding.size() > 1) {
      b.append("  bindingTables:\n    - ")
          .append(String.join(",", binding.stream().map(name).toList())).append('\n');
    }
    b.append("  shardingAlgorithms:\n    chunk:\n      type: CLASS_BASED\n      props:\n")
        .append("        strategy: STANDARD\n")
        .append("        algorithmClassName: ").append(ChunkShardingAlgorithm.class.getName())
        .append('\n')
        .append("        ").append(ChunkShardingAlgorithm.DATA_SOURCES).append(": ")
        .append(quoted(names.toString())).append('\n')
        .append("        ").append(ChunkShardingAlgorithm.CHUNKS).append(": ")
        .append(defaultChunks(shardUrls.size())).append('\n');
    b.append("- !BROADCAST\n  tables:\n");
    for (String table : broadcast) {
      b.append("    - ").append(name.apply(table)).append('\n');
    }
    return b.toString();
  }

  /**
   * How the shards spell the benchmark's unquoted names. ShardingSphere looks the configured
   * tables up in the shards' metadata as spelled, and the same DDL makes ORDERS on H2 but
   * orders on PostgreSQL, which folds unquoted names to lower case. Queries may still spell
   * them either way: ShardingSphere matches them to the configured tables ignoring case.
   */
  static Function<String, String> physicalSpelling(String url) {
    return url.startsWith("jdbc:postgresql:")
        ? text -> text.toLowerCase(Locale.ROOT)
        : Function.identity();
  }

  /**
   * The URL as ShardingSphere accepts it. Its H2 URL parser (5.5.2) recognizes file databases
   * only when spelled {@code jdbc:h2:file:...}; H2 reads {@code jdbc:h2:/path} as the same
   * file, so only the spelling changes.
   */
  static String spelledForShardingSphere(String url) {
    final String h2Path = "jdbc:h2:/";
    return url.startsWith(h2Path) ? "jdbc:h2:file:/" + url.substring(h2Path.length()) : url;
  }

  /** A single-quoted YAML scalar, which takes any text with its quotes doubled. */
  private static String quoted(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
