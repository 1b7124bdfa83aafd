package io.shardset.reshard;

import io.shardset.model.ChunkMapSpec;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading a model file's operand as Calcite does, and rewriting parts of it atomically. */
class ModelFileTest {
  private static final String MODEL = """
      {
        "version": "1.0",
        "defaultSchema": "S",
        "schemas": [
          {
            "name": "S",
            "type": "custom",
            "factory": "io.shardset.calcite.ShardSchemaFactory",
            "operand": {
              "shards": [
                {"name": "s0", "jdbcUrl": "jdbc:h2:${modelDir}/s0"},
                {"name": "s1", "jdbcUrl": "jdbc:h2:${modelDir}/s1"}
              ],
              "tables": [
                {"name": "T", "method": "consistent-hash", "shardKey": ["K"],
                 "shards": ["s0", "s1"]},
                {"name": "R", "method": "duplicated", "shards": ["s0", "s1"]}
              ],
              "parallelism": 4
            }
          }
        ]
      }
      """;

  @TempDir Path folder;

  private ModelFile file() throws IOException {
    Path path = folder.resolve("model.json");
    Files.writeString(path, MODEL);
    return ModelFile.read(path);
  }

  @Test void operandIsCalcites() throws IOException {
    ModelFile file = file();
    Map<String, Object> operand = file.operand("S");
    assertEquals(folder.toFile(), operand.get("baseDirectory"));
    assertEquals(file.path().toString(), operand.get("modelUri"));
    ShardSetModel model = file.model("S");
    assertEquals("jdbc:h2:" + folder.toAbsolutePath() + "/s1",
        model.shard("s1").jdbcUrl());
    assertEquals(List.of("S"), file.schemas());
    assertEquals("S", file.shardSetSchema());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> file.operand("X"));
    assertEquals("model file " + file.path() + " has no schema 'X'; schemas are [S]",
        e.getMessage());
  }

  @Test void editsKeepTheRestAndWriteAtomically() throws IOException {
    ModelFile file = file();
    Map<String, Object> s2 = new LinkedHashMap<>();
    s2.put("name", "s2");
    s2.put("jdbcUrl", "jdbc:h2:${modelDir}/s2");
    List<ChunkMapSpec> map = List.of(new ChunkMapSpec(0, 1L << 31, "s0"),
        new ChunkMapSpec(1L << 31, 3L << 30, "s1"),
        new ChunkMapSpec(3L << 30, 1L << 32, "s1"));
    ReshardSpec reshard = new ReshardSpec("default", ReshardSpec.Phase.COPY,
        List.of(new ReshardSpec.MoveSpec(3L << 30, 1L << 32, "s1", "s2")), "add-shard s2",
        null);
    ModelFile edited = file.withShard("S", s2, List.of("T")).withChunkMap("S", map)
        .withReshard("S", reshard).write();
    String text = Files.readString(file.path());
    assertEquals(edited.text(), text);
    assertTrue(text.contains(
        "\n          {\"name\": \"s2\", \"jdbcUrl\": \"jdbc:h2:${modelDir}/s2\"}"), text);
    assertTrue(text.contains(
        "\n          {\"from\": 2147483648, \"to\": 3221225472, \"shard\": \"s1\"},\n"), text);
    assertTrue(text.contains("\"shards\": [\"s0\", \"s1\", \"s2\"]"), text);
    assertTrue(text.contains("\"shards\": [\"s0\", \"s1\"]"), "R keeps its shards: " + text);
    // Key order: chunkMap right after shards, the rest where it was.
    List<String> keys = List.of("\"shards\"", "\"chunkMap\"", "\"tables\"", "\"parallelism\"",
        "\"reshard\"");
    for (int i = 1; i < keys.size(); i++) {
      assertTrue(text.indexOf(keys.get(i - 1)) < text.indexOf(keys.get(i)), text);
    }
    assertTrue(text.lines().allMatch(line -> line.length() <= JsonText.WIDTH), text);
    try (var listing = Files.list(folder)) {
      assertEquals(List.of(file.path()), listing.toList(), "no temporary file is left");
    }

    ShardSetModel model = ModelFile.read(file.path()).model("S");
    assertEquals(map, model.chunkMap());
    assertEquals(reshard, model.reshard());
    assertEquals(3, model.tables().get(0).shards().size());

    ModelFile done = ModelFile.read(file.path()).withReshard("S", null)
        .withoutShard("S", "s2").withChunkMap("S", List.of(new ChunkMapSpec(0, 1L << 31, "s0"),
            new ChunkMapSpec(1L << 31, 1L << 32, "s1")))
        .write();
    ShardSetModel after = done.model("S");
    assertNull(after.reshard());
    assertEquals(List.of("s0", "s1"), after.tables().get(0).shards());
    assertFalse(done.text().contains("s2"));
  }

  @Test void aRewriteKeepsTheFilesPermissions() throws IOException {
    ModelFile file = file();
    Set<PosixFilePermission> readable = PosixFilePermissions.fromString("rw-r--r--");
    Files.setPosixFilePermissions(file.path(), readable);
    file.withReshard("S", null).write();
    assertEquals(readable, Files.getPosixFilePermissions(file.path()));
  }

  @Test void refusesToOverwriteAnotherEdit() throws IOException {
    ModelFile file = file();
    Files.writeString(file.path(), MODEL.replace("\"parallelism\": 4", "\"parallelism\": 2"));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> file.withReshard("S", null).write());
    assertEquals("model file " + file.path() + " changed since it was read; run the command"
        + " again", e.getMessage());
  }

  @Test void namesTheShardSetSchemaToEdit() throws IOException {
    Path path = folder.resolve("two.json");
    String schema = "{\"name\": \"%s\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {}}";
    Files.writeString(path, "{\"schemas\": [" + String.format(Locale.ROOT, schema, "A") + ", "
        + String.format(Locale.ROOT, schema, "B") + "]}");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ModelFile.read(path).shardSetSchema());
    assertEquals("model file " + path + " has ShardSet schemas A, B; name one", e.getMessage());
    Files.writeString(path, "{\"defaultSchema\": \"B\", \"schemas\": ["
        + String.format(Locale.ROOT, schema, "A") + ", "
        + String.format(Locale.ROOT, schema, "B") + "]}");
    assertEquals("B", ModelFile.read(path).shardSetSchema());
  }

  @Test void refusesYaml() throws IOException {
    Path path = folder.resolve("model.yaml");
    Files.writeString(path, "version: 1.0\nschemas: []\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ModelFile.read(path));
    assertTrue(e.getMessage().startsWith("model file " + path + " is not JSON (resharding"
        + " edits JSON model files only)"), e.getMessage());
  }
}
