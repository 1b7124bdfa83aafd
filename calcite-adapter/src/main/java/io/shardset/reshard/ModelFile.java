package io.shardset.reshard;

import io.shardset.catalog.CatalogOperands;
import io.shardset.catalog.ModelCatalog;
import io.shardset.catalog.ModelDocuments;
import io.shardset.model.CatalogSpec;
import io.shardset.model.ChunkMapSpec;
import io.shardset.model.ModelParser;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.util.AtomicFiles;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A Calcite JSON model file as the resharding tool reads and rewrites it: each edit gives a
 * new in-memory copy, and {@link #write()} replaces the file atomically, leaving every part the
 * edit did not touch as it was (key order included; comments are not kept).
 *
 * <p>A schema of the file that points at a catalog is read as the catalog's newest version
 * says it, and {@link #write()} writes an edit of it to the catalog as the next version (the
 * file itself, the pointer, stays as it is).
 */
public final class ModelFile {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(JsonParser.Feature.ALLOW_COMMENTS)
      .enable(JsonParser.Feature.ALLOW_SINGLE_QUOTES)
      .enable(JsonParser.Feature.ALLOW_UNQUOTED_FIELD_NAMES);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** SQLState of a version another process wrote first. */
  private static final String WRITTEN_MEANWHILE = "40001";

  /**
   * A schema the file points at in a catalog: the version read, and its operand as read.
   *
   * @param version the number of the version read or last written here
   */
  public record CatalogSchema(CatalogSpec spec, long version, String operand) {
    public CatalogSchema {
      Objects.requireNonNull(spec, "spec");
      Objects.requireNonNull(operand, "operand");
    }
  }

  private final Path path;
  /** The file's text when it was read or last written here. */
  private final String onDisk;
  private final ObjectNode root;
  /** The schemas kept in a catalog, by name; their operands in {@link #root} are the
   * catalog's. */
  private final Map<String, CatalogSchema> catalogSchemas;

  private ModelFile(Path path, String onDisk, ObjectNode root,
      Map<String, CatalogSchema> catalogSchemas) {
    this.path = path;
    this.onDisk = onDisk;
    this.root = root;
    this.catalogSchemas = Map.copyOf(catalogSchemas);
  }

  /**
   * Reads a model file.
   *
   * @throws IllegalArgumentException if it is not a JSON object (YAML models cannot be edited)
   */
  public static ModelFile read(Path path) {
    Objects.requireNonNull(path, "path");
    String text;
    try {
      text = Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read model file " + path + ": " + e.getMessage(), e);
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("model file " + path + " is not JSON (resharding edits"
          + " JSON model files only): " + e.getOriginalMessage(), e);
    }
    if (!(root instanceof ObjectNode object)) {
      throw new IllegalArgumentException("model file " + path + " does not hold a JSON object");
    }
    return new ModelFile(path, text, object, Map.of()).fromCatalogs();
  }

  /** This file with each schema that points at a catalog read from the catalog. */
  private ModelFile fromCatalogs() {
    final ObjectNode copy = root.deepCopy();
    final Map<String, CatalogSchema> read = new LinkedHashMap<>();
    for (String schema : schemas()) {
      final ObjectNode operand = operandNode(copy, schema);
      if (!operand.has("catalog")) {
        continue;
      }
      final CatalogSpec spec = Objects.requireNonNull(
          ModelParser.catalog(schema, operand(schema), System::getenv));
      final ModelCatalog.Version version = CatalogOperands.newest(spec, schema);
      operand.removeAll();
      operand.setAll(readObject(version.operand()));
      read.put(schema, new CatalogSchema(spec, version.number(), version.operand()));
    }
    return read.isEmpty() ? this : new ModelFile(path, onDisk, copy, read);
  }

  /** The catalog a schema is kept in, with the version read; null for a schema of the file. */
  public @Nullable CatalogSchema catalogSchema(String schema) {
    return catalogSchemas.get(schema);
  }

  public Path path() {
    return path;
  }

  /** The names of the file's schemas, in file order. */
  public List<String> schemas() {
    List<String> names = new ArrayList<>();
    root.path("schemas").forEach(schema -> names.add(schema.path("name").asText()));
    return names;
  }

  /**
   * The ShardSet schema to edit when none is named: the file's only schema made by
   * {@link ModelDocuments#SCHEMA_FACTORY}, else its {@code defaultSchema} if that is one of them.
   *
   * @throws IllegalArgumentException if that leaves none or several
   */
  public String shardSetSchema() {
    List<String> names = new ArrayList<>();
    for (JsonNode schema : root.path("schemas")) {
      if (schema.path("factory").asText().equals(ModelDocuments.SCHEMA_FACTORY)) {
        names.add(schema.path("name").asText());
      }
    }
    String fallback = root.path("defaultSchema").asText(null);
    if (names.size() == 1) {
      return names.get(0);
    } else if (names.contains(fallback)) {
      return fallback;
    }
    throw new IllegalArgumentException("model file " + path + (names.isEmpty()
        ? " has no ShardSet schema (factory " + ModelDocuments.SCHEMA_FACTORY + ")"
        : " has ShardSet schemas " + String.join(", ", names) + "; name one"));
  }

  /**
   * A schema's operand as Calcite's model handler passes it to the schema factory: the file's
   * operand plus {@code baseDirectory} (the model's folder) and {@code modelUri} (the path).
   */
  public Map<String, Object> operand(String schema) {
    Map<String, Object> operand = MAPPER.convertValue(operandNode(schema),
        new TypeReference<LinkedHashMap<String, Object>>() { });
    operand.putIfAbsent("baseDirectory", path.toAbsolutePath().getParent().toFile());
    operand.putIfAbsent("modelUri", path.toString());
    return operand;
  }

  /** A schema's validated model, with environment placeholders from the process. */
  public ShardSetModel model(String schema) {
    return ModelParser.parse(schema, operand(schema), System::getenv);
  }

  /** A copy whose schema has this chunk map, each entry as {@code from, to, shard}. */
  public ModelFile withChunkMap(String schema, List<ChunkMapSpec> entries) {
    return edit(schema, operand -> {
      ArrayNode array = NODES.arrayNode();
      for (ChunkMapSpec entry : entries) {
        array.addObject().put("from", entry.from()).put("to", entry.to())
            .put("shard", entry.shard());
      }
      putAfter(operand, "chunkMap", array, "chunks", "shards");
    });
  }

  /** A copy whose schema records this move in progress; null removes the record. */
  public ModelFile withReshard(String schema, ReshardSpec reshard) {
    return edit(schema, operand -> {
      if (reshard == null) {
        operand.remove("reshard");
        return;
      }
      ObjectNode node = NODES.objectNode()
          .put("shardspace", reshard.shardspace())
          .put("phase", reshard.phase().modelName())
          .put("operation", reshard.operation());
      if (reshard.leaving() != null) {
        node.put("leaving", reshard.leaving());
      }
      ArrayNode moves = node.putArray("moves");
      for (ReshardSpec.MoveSpec move : reshard.moves()) {
        moves.addObject().put("from", move.from()).put("to", move.to())
            .put("source", move.source()).put("target", move.target());
      }
      operand.set("reshard", node);
    });
  }

  /**
   * A copy whose schema has one more shard, written as given (placeholders stay), and whose
   * tables {@code listedBy} name it at the end of their explicit {@code shards}.
   */
  public ModelFile withShard(String schema, Map<String, Object> shard, List<String> listedBy) {
    return edit(schema, operand -> {
      JsonNode shards = operand.get("shards");
      if (!(shards instanceof ArrayNode array)) {
        throw new IllegalArgumentException("schema '" + schema + "' has no shards array");
      }
      array.add(MAPPER.valueToTree(shard));
      for (JsonNode table : operand.path("tables")) {
        if (listedBy.contains(table.path("name").asText())
            && table.get("shards") instanceof ArrayNode listed) {
          listed.add((String) shard.get("name"));
        }
      }
    });
  }

  /** A copy without a shard, in the schema's shards and in every table's explicit shards. */
  public ModelFile withoutShard(String schema, String shard) {
    return edit(schema, operand -> {
      removeNamed(operand.path("shards"), shard);
      for (JsonNode table : operand.path("tables")) {
        removeText(table.path("shards"), shard);
      }
    });
  }

  /** The file's text as {@link #write()} would write it. */
  public String text() {
    return JsonText.write(root);
  }

  /**
   * Replaces the file with this copy atomically ({@link AtomicFiles}); a schema kept in a
   * catalog whose operand this copy changed is written there as the next version instead.
   *
   * @return the model file as now written
   * @throws IllegalStateException if the file, or the catalog's version of a schema, changed
   *     since it was read
   */
  public ModelFile write() throws IOException {
    if (!catalogSchemas.isEmpty()) {
      return publish();
    }
    String text = text();
    if (!Files.readString(path).equals(onDisk)) {
      throw new IllegalStateException("model file " + path + " changed since it was read;"
          + " run the command again");
    }
    AtomicFiles.replace(path, text);
    return new ModelFile(path, text, root.deepCopy(), catalogSchemas);
  }

  /** Writes each changed schema kept in a catalog as its next version there. */
  private ModelFile publish() throws IOException {
    final Map<String, CatalogSchema> written = new LinkedHashMap<>(catalogSchemas);
    for (Map.Entry<String, CatalogSchema> entry : catalogSchemas.entrySet()) {
      final String schema = entry.getKey();
      final CatalogSchema read = entry.getValue();
      final String operand = JsonText.write(operandNode(schema));
      if (readObject(operand).equals(readObject(read.operand()))) {
        continue;
      }
      try {
        final ModelCatalog.Version version = ModelCatalog.of(read.spec())
            .publish(schema, read.version(), operand, "shardset reshard apply");
        written.put(schema, new CatalogSchema(read.spec(), version.number(), operand));
      } catch (SQLException e) {
        if (WRITTEN_MEANWHILE.equals(e.getSQLState())) {
          throw new IllegalStateException(e.getMessage(), e);
        }
        throw new IOException("cannot write schema '" + schema + "' to the " + read.spec()
            + ": " + e.getMessage(), e);
      }
    }
    return new ModelFile(path, onDisk, root.deepCopy(), written);
  }

  private ModelFile edit(String schema, Consumer<ObjectNode> change) {
    ObjectNode copy = root.deepCopy();
    change.accept(operandNode(copy, schema));
    return new ModelFile(path, onDisk, copy, catalogSchemas);
  }

  private static ObjectNode readObject(String text) {
    try {
      if (MAPPER.readTree(text) instanceof ObjectNode object) {
        return object;
      }
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
    throw new IllegalArgumentException("not a JSON object");
  }

  private ObjectNode operandNode(String schema) {
    return operandNode(root, schema);
  }

  private ObjectNode operandNode(ObjectNode tree, String schema) {
    for (JsonNode node : tree.path("schemas")) {
      if (node.path("name").asText().equals(schema)) {
        if (node.get("operand") instanceof ObjectNode operand) {
          return operand;
        }
        throw new IllegalArgumentException("schema '" + schema + "' in " + path
            + " has no operand object");
      }
    }
    throw new IllegalArgumentException("model file " + path + " has no schema '" + schema
        + "'; schemas are " + schemas());
  }

  /**
   * Sets a key, in place when present, else right after the first of {@code after} the
   * object has (at the end when it has none).
   */
  private static void putAfter(ObjectNode object, String key, JsonNode value,
      String... after) {
    if (object.has(key)) {
      object.set(key, value);
      return;
    }
    String anchor = null;
    for (String candidate : after) {
      if (object.has(candidate)) {
        anchor = candidate;
        break;
      }
    }
    if (anchor == null) {
      object.set(key, value);
      return;
    }
    Map<String, JsonNode> fields = new LinkedHashMap<>();
    object.fields().forEachRemaining(f -> fields.put(f.getKey(), f.getValue()));
    object.removeAll();
    for (Map.Entry<String, JsonNode> field : fields.entrySet()) {
      object.set(field.getKey(), field.getValue());
      if (field.getKey().equals(anchor)) {
        object.set(key, value);
      }
    }
  }

  private static void removeNamed(JsonNode array, String name) {
    for (Iterator<JsonNode> i = array.iterator(); i.hasNext();) {
      if (i.next().path("name").asText().equals(name)) {
        i.remove();
      }
    }
  }

  private static void removeText(JsonNode array, String text) {
    for (Iterator<JsonNode> i = array.iterator(); i.hasNext();) {
      if (i.next().asText().equals(text)) {
        i.remove();
      }
    }
  }
}
