package io.shardset.model;

import io.shardset.routing.ChunkMap;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Turns a ShardSet schema's model operand into a validated {@link ShardSetModel}.
 *
 * <p>The operand is the map Calcite's model handler parsed from JSON (or YAML). Besides the keys
 * of the contract ({@code shards}, {@code chunks}, {@code chunkMap}, {@code tables}), ShardSet
 * accepts these extensions:
 * <ul>
 *   <li>{@code parallelism}: how many shards one query may read at once;</li>
 *   <li>{@code writeWaitMillis}: how long an INSERT of a row whose hash range a resharding
 *       moves waits for the move to end (default 0: it fails at once with SQLState 40001);</li>
 *   <li>{@code checkShards}: when connections check the shards' tables against the model,
 *       {@code atOpen} (the default) or {@code onFirstUse} (see {@link ShardCheck});</li>
 *   <li>{@code scatter} and {@code maxShards}, of the schema and of a table: how many of a
 *       table's shards one statement may reach (see {@link ScatterLimit});</li>
 *   <li>{@code reshard}: a resharding in progress, written by the resharding tool (see
 *       {@link ReshardSpec});</li>
 *   <li>a table's {@code shardspace}: the shardspace holding the table;</li>
 *   <li>{@code transactions}: how writes across shards commit (see
 *       {@link TransactionsSpec});</li>
 *   <li>{@code ${modelDir}} in any string value: the absolute path of the folder holding the
 *       model file (the {@code baseDirectory} Calcite adds to the operand), so that a model can
 *       point at H2 database files next to it, as in
 *       {@code "jdbcUrl": "jdbc:h2:${modelDir}/data/s0"}.</li>
 * </ul>
 *
 * <p>Any string value may also contain {@code ${env:NAME}}, replaced by that environment
 * variable. The keys Calcite adds to every custom schema's operand ({@code baseDirectory},
 * {@code modelUri}) are allowed; any other unknown key is an error.
 */
public final class ModelParser {
  private static final List<String> KEYS = List.of("shards", "chunks", "chunkMap", "parallelism",
      "tables", "reshard", "transactions", "writeWaitMillis", "checkShards",
      ScatterParser.MODE, ScatterParser.MAX_SHARDS, SequencesParser.FIELD);
  /** Keys Calcite's model handler adds to the operand of every custom schema. */
  private static final Set<String> CALCITE_KEYS = Set.of("baseDirectory", "modelUri");
  /** Calcite's keys in the operand of a schema that points at a catalog. */
  private static final Set<String> POINTER_CALCITE_KEYS =
      Set.of("baseDirectory", "modelUri", "tables");

  private ModelParser() {
  }

  /**
   * The catalog a schema's operand points at ({@code "catalog": {"jdbcUrl": ..., "jdbcUser":
   * ..., "jdbcPassword": ...}}, and nothing else but Calcite's own keys), or null when the
   * operand holds the model itself.
   *
   * @throws ModelException if the catalog object is malformed or keys of a model sit beside it
   */
  public static @Nullable CatalogSpec catalog(String schema, Map<String, ?> operand,
      UnaryOperator<String> env) {
    Objects.requireNonNull(schema, "schema");
    if (!operand.containsKey("catalog")) {
      return null;
    }
    Placeholders placeholders = new Placeholders(env, modelDir(operand.get("baseDirectory")));
    OperandNode root = new OperandNode(operand, Location.of(schema), placeholders);
    // Calcite's model handler adds the schema's own (here empty) table list as "tables".
    root.checkKeys(List.of("catalog"), operand.get("tables") instanceof List<?> list
        && list.isEmpty() ? POINTER_CALCITE_KEYS : CALCITE_KEYS);
    OperandNode catalog = root.object("catalog");
    catalog.checkKeys(List.of("jdbcUrl", "jdbcUser", "jdbcPassword", "leaseMillis",
        "pollMillis"), Set.of());
    String url = catalog.string("jdbcUrl");
    if (url == null || url.isBlank()) {
      throw catalog.error("jdbcUrl", "is required: the catalog database's JDBC URL");
    }
    String user = catalog.string("jdbcUser");
    String password = catalog.string("jdbcPassword");
    Long lease = catalog.integer("leaseMillis", 1_000, Integer.MAX_VALUE);
    Long poll = catalog.integer("pollMillis", 10, Integer.MAX_VALUE);
    long leaseMillis = lease == null ? CatalogSpec.DEFAULT_LEASE_MILLIS : lease;
    long pollMillis = poll == null ? Math.min(CatalogSpec.DEFAULT_POLL_MILLIS, leaseMillis / 3)
        : poll;
    if (pollMillis * 3 > leaseMillis) {
      throw catalog.error("pollMillis", "must be at most a third of leaseMillis ("
          + leaseMillis + "), so that a process renews its lease in time; got " + pollMillis);
    }
    return new CatalogSpec(url, user == null ? "" : user, password == null ? "" : password,
        leaseMillis, pollMillis);
  }

  /**
   * Parses and validates a schema's operand.
   *
   * @param schema the schema name, for messages
   * @param operand the operand
   * @param env looks up an environment variable ({@code System::getenv} in production),
   *     returning null when it is not set
   * @throws ModelException naming the schema, table or shard, and field at fault
   */
  public static ShardSetModel parse(String schema, Map<String, ?> operand,
      UnaryOperator<String> env) {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(operand, "operand");
    Placeholders placeholders = new Placeholders(env, modelDir(operand.get("baseDirectory")));
    OperandNode root = new OperandNode(operand, Location.of(schema), placeholders);
    root.checkKeys(KEYS, CALCITE_KEYS);
    List<ShardSpec> shards = ShardsParser.parse(root);
    Long chunks = root.integer("chunks", 1, ChunkMap.MAX_CHUNKS);
    List<ChunkMapSpec> chunkMap = ChunkMapParser.parse(root, shards);
    Integer parallelism = root.positiveInt("parallelism");
    List<OperandNode> tableEntries = tableEntries(root);
    List<TableSpec> tables = new TableParser(shards).parse(tableEntries);
    ReshardSpec reshard = ReshardParser.parse(root, shards, chunkMap);
    TransactionsSpec transactions = TransactionsParser.parse(root);
    Long writeWait = root.integer("writeWaitMillis", 0, Integer.MAX_VALUE);
    ShardSetModel model =
        new ShardSetModel(schema, shards, chunks == null ? null : chunks.intValue(), chunkMap,
            parallelism, tables, reshard, transactions, writeWait == null ? 0 : writeWait,
            checkShards(root), ScatterParser.parse(schema, root, tableEntries),
            SequencesParser.parse(root, tableEntries));
    checkDefaultChunks(root, model);
    checkChunkMapPlacesHashTables(root, model);
    return model;
  }

  private static ShardCheck checkShards(OperandNode root) {
    final String name = root.name("checkShards");
    if (name == null) {
      return ShardCheck.AT_OPEN;
    }
    try {
      return ShardCheck.fromModelName(name);
    } catch (IllegalArgumentException e) {
      throw root.error("checkShards", e.getMessage());
    }
  }

  private static List<OperandNode> tableEntries(OperandNode root) {
    // Calcite's model handler fills in "tables" when the operand has none, with its own table
    // objects from the schema's (not the operand's) "tables"; those are not ShardSet tables.
    if (root.raw("tables") instanceof List<?> list && !list.isEmpty()
        && list.stream().allMatch(ModelParser::isCalciteModelObject)) {
      return List.of();
    }
    List<OperandNode> entries = root.entries("tables");
    return entries == null ? List.of() : entries;
  }

  private static boolean isCalciteModelObject(Object value) {
    return value != null && value.getClass().getName().startsWith("org.apache.calcite.model.");
  }

  /**
   * Without {@code chunks}, a shardspace has 120 chunks per shard; a very wide shardspace must
   * then say how many it wants, since the chunk map holds one entry per chunk.
   */
  private static void checkDefaultChunks(OperandNode root, ShardSetModel model) {
    if (model.chunks() != null) {
      return;
    }
    model.shards().stream().map(ShardSpec::shardspace).distinct().forEach(space -> {
      long shards = model.shardspace(space).size();
      long chunks = shards * ShardSetModel.DEFAULT_CHUNKS_PER_SHARD;
      if (chunks > ChunkMap.MAX_CHUNKS) {
        throw root.error("chunks", "shardspace '" + space + "' has " + shards + " shards, and "
            + ShardSetModel.DEFAULT_CHUNKS_PER_SHARD + " chunks per shard make " + chunks
            + " chunks, more than " + ChunkMap.MAX_CHUNKS + "; set 'chunks' to at most "
            + ChunkMap.MAX_CHUNKS);
      }
    });
  }

  /**
   * With a chunk map, every shardspace of a consistent-hash table needs entries: the map alone
   * places chunks, and the routing would otherwise have nowhere to send them.
   */
  private static void checkChunkMapPlacesHashTables(OperandNode root, ShardSetModel model) {
    if (model.chunkMap().isEmpty()) {
      return;
    }
    for (TableSpec table : model.tables()) {
      for (String space : table.hashedShardspaces()) {
        if (model.chunkMap(space).isEmpty()) {
          throw root.error("chunkMap", "shardspace '" + space + "' has no entries, but "
              + table.method().modelName() + " table '" + table.name() + "' uses it");
        }
      }
    }
  }

  private static String modelDir(Object baseDirectory) {
    if (baseDirectory instanceof File file) {
      return file.getAbsolutePath();
    } else if (baseDirectory instanceof Path path) {
      return path.toAbsolutePath().toString();
    } else if (baseDirectory instanceof String name) {
      return new File(name).getAbsolutePath();
    }
    return null;
  }
}
