package io.shardset.cli;

import io.shardset.catalog.ModelDocuments;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code shardset catalog init}, {@code export} and {@code show} on an H2 catalog: a model file
 * put in and exported again is the same model; the pointer file it writes serves
 * {@code shardset load} and {@code shardset reshard}; a second init and a password in clear
 * text are refused.
 */
class CatalogCommandTest {
  private static final String MODEL = "\"chunks\": 60, \"tables\": ["
      + "{\"name\": \"CUSTOMERS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]";
  private static final String DDL = "CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY,"
      + " NAME VARCHAR(20) NOT NULL)";

  @TempDir Path folder;
  private H2Shards shards;
  private String out = "";
  private String err = "";

  @AfterEach void closeShards() throws SQLException {
    if (shards != null) {
      shards.close();
    }
  }

  private int run(String... args) {
    final CliRun run = CliRun.of(args);
    out = run.out();
    err = run.err();
    return run.code();
  }

  private static ShardSetModel parse(Path modelFile) throws Exception {
    final String text = Files.readString(modelFile);
    final Map<String, Object> operand = new LinkedHashMap<>(ModelDocuments.operand(
        new io.shardset.catalog.ModelCatalog.Version("S", 1,
            ModelDocuments.shardSetSchemas(text, "test").get(0).operand(),
            java.time.Instant.EPOCH, "test")));
    return ModelParser.parse("S", operand, name -> null);
  }

  @Test void initExportAndLoadThroughThePointer() throws Exception {
    shards = H2Shards.create(folder, 2, MODEL, DDL);
    final String catalog = "jdbc:h2:" + folder.resolve("catalog");
    final Path pointer = folder.resolve("pointer.json");
    assertEquals(0, run("catalog", "init", "--model", shards.modelFile().toString(),
        "--catalog", catalog, "--catalog-user", "sa", "--write-pointer", pointer.toString()),
        err);
    assertEquals("schema 'S' written to the catalog " + catalog + " as sa as version 1\n"
        + "model file " + pointer + " points at schema 'S' of the catalog\n", out);

    assertEquals(1, run("catalog", "init", "--model", shards.modelFile().toString(),
        "--catalog", catalog, "--catalog-user", "sa"));
    assertTrue(err.startsWith("not written: the catalog " + catalog + " as sa holds schema"
        + " 'S' already (version 1, shardset catalog init --model model.json)"), err);

    final Path exported = folder.resolve("exported.json");
    assertEquals(0, run("catalog", "export", "--schema", "S", "--catalog", catalog,
        "--catalog-user", "sa", "--output", exported.toString()), err);
    assertEquals(parse(shards.modelFile()), parse(exported));

    assertEquals(0, run("catalog", "show", "--catalog", catalog, "--catalog-user", "sa"), err);
    assertTrue(out.matches("catalog \\S+ as sa:\n  S version 1  \\S+  shardset catalog init"
        + " --model model\\.json\nprocesses serving S: none\n"), out);

    final Path csv = folder.resolve("customers.csv");
    Files.write(csv, List.of("ID,NAME", "1,Ann", "2,Bo", "3,Cy"), StandardCharsets.UTF_8);
    assertEquals(0, run("load", "--model", pointer.toString(), "--table", "CUSTOMERS",
        csv.toString()), err);
    assertEquals(3, shards.rows(0, "SELECT ID FROM CUSTOMERS").size()
        + shards.rows(1, "SELECT ID FROM CUSTOMERS").size());

    // A connection on the pointer's model keeps this JVM serving the schema throughout:
    // without one, the model is closed (and leaves the catalog) whenever it is collected.
    try (Connection serving = DriverManager.getConnection("jdbc:shardset:model=" + pointer)) {
      // Resharding through the pointer writes each step to the catalog as a new version;
      // with the grace of a model file not waited out: each step waits for the processes
      // serving.
      assertEquals(0, run("reshard", "apply", "remove-shard", "s1", "--model",
          pointer.toString(), "--grace", "600m"), err);
      assertTrue(err.contains("finish: version 4 acknowledged by "), err);
      assertEquals(3, shards.rows(0, "SELECT ID FROM CUSTOMERS").size());
      assertEquals(0, run("reshard", "show", "--model", pointer.toString()), err);
      assertTrue(out.startsWith("shardspace 'default': 1 shard, 60 hash ranges"), out);
      assertEquals(0, run("catalog", "show", "--catalog", catalog, "--catalog-user", "sa"),
          err);
      assertTrue(out.matches("catalog \\S+ as sa:\n  S version 1  \\S+  shardset catalog"
          + " init --model model\\.json\n(  S version [234]  \\S+  shardset reshard apply\n)"
          + "{3}processes serving S:\n  \\S+ pid \\d+[^\n]*  runs version 4, drained 4,"
          + " lease renewed \\d+ ms ago\n"), out);
    }
  }

  /**
   * A model's sequences go on where they stood when the model moves into a catalog and out
   * again: their positions live in the database each keeps them in, and init and export carry
   * them over.
   */
  @Test void sequencesGoOnAcrossInitAndExport() throws Exception {
    shards = H2Shards.create(folder, 2, "\"chunks\": 60, \"sequences\": [{\"name\": \"IDS\","
        + " \"blockSize\": 10}], \"tables\": [{\"name\": \"CUSTOMERS\", \"method\":"
        + " \"consistent-hash\", \"shardKey\": [\"ID\"], \"columnSequences\": {\"ID\":"
        + " \"IDS\"}}]", DDL);
    insertCustomers(shards.modelFile(), "Ann", "Bo", "Cy");
    final String catalog = "jdbc:h2:" + folder.resolve("catalog");
    final Path pointer = folder.resolve("pointer.json");
    assertEquals(0, run("catalog", "init", "--model", shards.modelFile().toString(),
        "--catalog", catalog, "--catalog-user", "sa", "--write-pointer", pointer.toString()),
        err);
    assertTrue(out.startsWith("sequence S.IDS carried over from "
        + folder.resolve("model.S.transactions") + ": it goes on from 11\n"), out);
    insertCustomers(pointer, "Di");
    final Path exported = folder.resolve("exported.json");
    assertEquals(0, run("catalog", "export", "--schema", "S", "--catalog", catalog,
        "--catalog-user", "sa", "--output", exported.toString()), err);
    assertTrue(out.endsWith("sequence S.IDS carried over from " + catalog + ": it goes on"
        + " from 21\n"), out);
    insertCustomers(exported, "Ed");
    final List<String> ids = new ArrayList<>(shards.rows(0, "SELECT ID FROM CUSTOMERS"));
    ids.addAll(shards.rows(1, "SELECT ID FROM CUSTOMERS"));
    ids.sort(Comparator.comparingLong(Long::parseLong));
    assertEquals(List.of("1", "2", "3", "11", "21"), ids);
  }

  private static void insertCustomers(Path model, String... names) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:shardset:model=" + model);
         PreparedStatement insert = c.prepareStatement("INSERT INTO CUSTOMERS (NAME)"
             + " VALUES (?)")) {
      for (String name : names) {
        insert.setString(1, name);
        assertEquals(1, insert.executeUpdate());
      }
    }
  }

  @Test void aPasswordInClearTextIsNotWritten() throws Exception {
    shards = H2Shards.create(folder, 2, MODEL, DDL);
    final Path model = folder.resolve("secret.json");
    Files.writeString(model, Files.readString(shards.modelFile()).replace(
        "\"jdbcPassword\": \"\"", "\"jdbcPassword\": \"hunter2-Secret\""));
    assertEquals(1, run("catalog", "init", "--model", model.toString(), "--catalog",
        "jdbc:h2:" + folder.resolve("catalog"), "--catalog-user", "sa"));
    assertEquals("not written: schema 'S': shards[0].jdbcPassword holds a password; the"
        + " catalog keeps none: write ${env:NAME} there and set NAME in the environment of"
        + " every process that opens the model\n", err);
  }
}
