package io.shardset.catalog;

import io.shardset.model.CatalogSpec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The JSON documents around a catalog: the ShardSet schemas of a model file as the catalog
 * keeps them (each schema's operand, placeholders unresolved), a model file made from a
 * version, and the small model file that points at a catalog.
 */
public final class ModelDocuments {
  /** The factory of a ShardSet schema in a Calcite model file: the planner's schema factory,
   * named rather than referenced, as the catalog and resharding do not use the planner. */
  public static final String SCHEMA_FACTORY = "io.shardset.calcite.ShardSchemaFactory";
  /** The environment variable a pointer file takes the catalog's password from. */
  public static final String PASSWORD_VARIABLE = "SHARDSET_CATALOG_PASSWORD";
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(JsonParser.Feature.ALLOW_COMMENTS)
      .enable(SerializationFeature.INDENT_OUTPUT);
  /** What a password may hold in a catalog: nothing but environment placeholders. */
  private static final Pattern ENV_PLACEHOLDER = Pattern.compile("\\$\\{env:[^}]*}");
  /** A password given in a JDBC URL: as a property, or in the user part of the host. */
  private static final Pattern URL_PASSWORD = Pattern.compile(
      "(?i)password=[^;&]+|//[^/@:]*:[^/@]+@");

  /** A ShardSet schema of a model file: its name and operand as JSON text. */
  public record SchemaOperand(String schema, String operand) {
    public SchemaOperand {
      Objects.requireNonNull(schema, "schema");
      Objects.requireNonNull(operand, "operand");
    }
  }

  private ModelDocuments() {
  }

  /**
   * The ShardSet schemas of a model file's text, each with its operand, in file order.
   *
   * @throws IllegalArgumentException if the text is not a JSON model, has no ShardSet schema,
   *     points at a catalog already, or holds a password in clear text
   */
  public static List<SchemaOperand> shardSetSchemas(String modelText, String source) {
    final JsonNode root;
    try {
      root = JSON.readTree(modelText);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(source + " is not a JSON model file: "
          + e.getOriginalMessage(), e);
    }
    final List<SchemaOperand> schemas = new ArrayList<>();
    for (JsonNode schema : root.path("schemas")) {
      if (!SCHEMA_FACTORY.equals(schema.path("factory").asText())) {
        continue;
      }
      final String name = schema.path("name").asText();
      final JsonNode operand = schema.path("operand");
      if (!(operand instanceof ObjectNode object)) {
        throw new IllegalArgumentException("schema '" + name + "' of " + source
            + " has no operand object");
      }
      if (object.has("catalog")) {
        throw new IllegalArgumentException("schema '" + name + "' of " + source
            + " points at a catalog already; export it from there");
      }
      checkNoPasswords(name, object, "");
      schemas.add(new SchemaOperand(name, text(object)));
    }
    if (schemas.isEmpty()) {
      throw new IllegalArgumentException(source + " has no ShardSet schema (factory "
          + SCHEMA_FACTORY + ")");
    }
    return schemas;
  }

  /** A schema's operand as the map Calcite's model handler gives a schema factory. */
  public static Map<String, Object> operand(ModelCatalog.Version version) {
    try {
      return JSON.readValue(version.operand(),
          new TypeReference<LinkedHashMap<String, Object>>() { });
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("version " + version.number() + " of schema '"
          + version.schema() + "' in the catalog is not a JSON object: "
          + e.getOriginalMessage(), e);
    }
  }

  /** A model file of one schema made from a version of the catalog. */
  public static String modelFile(ModelCatalog.Version version) {
    final ObjectNode root = JSON.createObjectNode().put("version", "1.0")
        .put("defaultSchema", version.schema());
    final ObjectNode schema = root.putArray("schemas").addObject()
        .put("name", version.schema()).put("type", "custom").put("factory", SCHEMA_FACTORY);
    schema.set("operand", parse(version.operand()));
    return text(root);
  }

  /**
   * A model file of one schema that points at a catalog: its password, if it has one, from
   * {@value #PASSWORD_VARIABLE}, never written into the file.
   */
  public static String pointerFile(String schemaName, CatalogSpec catalog) {
    final ObjectNode root = JSON.createObjectNode().put("version", "1.0")
        .put("defaultSchema", schemaName);
    final ObjectNode schema = root.putArray("schemas").addObject()
        .put("name", schemaName).put("type", "custom").put("factory", SCHEMA_FACTORY);
    final ObjectNode settings = schema.putObject("operand").putObject("catalog")
        .put("jdbcUrl", catalog.jdbcUrl());
    if (!catalog.user().isEmpty()) {
      settings.put("jdbcUser", catalog.user());
    }
    if (!catalog.password().isEmpty()) {
      settings.put("jdbcPassword", "${env:" + PASSWORD_VARIABLE + "}");
    }
    if (catalog.leaseMillis() != CatalogSpec.DEFAULT_LEASE_MILLIS
        || catalog.pollMillis() != CatalogSpec.DEFAULT_POLL_MILLIS) {
      settings.put("leaseMillis", catalog.leaseMillis()).put("pollMillis",
          catalog.pollMillis());
    }
    return text(root);
  }

  /**
   * Refuses a password written in clear text anywhere in an operand (a shard's, a lookup
   * directory's): the catalog is read by every process and tool, and keeps none. The message
   * names where, never the value.
   */
  private static void checkNoPasswords(String schema, JsonNode node, String path) {
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> i = node.fields(); i.hasNext();) {
        final Map.Entry<String, JsonNode> field = i.next();
        final String at = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
        final String name = field.getKey().toLowerCase(Locale.ROOT);
        final JsonNode value = field.getValue();
        final String written = value.isValueNode() && !value.isNull()
            ? ENV_PLACEHOLDER.matcher(value.asText()).replaceAll("") : "";
        final boolean password = name.contains("password") && !written.isEmpty();
        final boolean inUrl = name.contains("url") && value.isTextual()
            && URL_PASSWORD.matcher(written).find();
        if (password || inUrl) {
          throw new IllegalArgumentException("schema '" + schema + "': " + at + " holds a"
              + " password; the catalog keeps none: write ${env:NAME} there and set NAME in"
              + " the environment of every process that opens the model");
        }
        checkNoPasswords(schema, field.getValue(), at);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        checkNoPasswords(schema, node.get(i), path + "[" + i + "]");
      }
    }
  }

  private static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static String text(JsonNode node) {
    try {
      return JSON.writeValueAsString(node) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
