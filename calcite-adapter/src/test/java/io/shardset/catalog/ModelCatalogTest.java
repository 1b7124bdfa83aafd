package io.shardset.catalog;

import io.shardset.model.CatalogSpec;
import io.shardset.model.ModelException;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A catalog database keeps a schema's model as numbered versions: on H2 and PostgreSQL, a
 * model file put in and exported again parses to the same model; a second writer of a version
 * is refused with 40001; a password written in clear text is refused, naming where and not
 * the value; and a model file that points at the catalog opens as the model itself does.
 */
class ModelCatalogTest {
  private static final String SECRET = "pw-Secret-1";

  @TempDir Path folder;

  private String model(String password) {
    final StringBuilder shards = new StringBuilder();
    for (int i = 0; i < 2; i++) {
      shards.append(i == 0 ? "" : ", ").append("{\"name\": \"s").append(i)
          .append("\", \"jdbcUrl\": \"jdbc:h2:${modelDir}/s").append(i)
          .append("\", \"jdbcUser\": \"sa\", \"jdbcPassword\": \"").append(password)
          .append("\"}");
    }
    return "{\"version\": \"1.0\", \"defaultSchema\": \"S\", \"schemas\": [{\"name\": \"S\","
        + " \"type\": \"custom\", \"factory\": \"io.shardset.calcite.ShardSchemaFactory\","
        + " \"operand\": {\"shards\": [" + shards + "], \"chunks\": 60,"
        + " \"chunkMap\": [{\"from\": 0, \"to\": 1431655765, \"shard\": \"s1\"},"
        + " {\"from\": 1431655765, \"to\": 4294967296, \"shard\": \"s0\"}],"
        + " \"tables\": [{\"name\": \"T\", \"method\": \"consistent-hash\","
        + " \"shardKey\": [\"ID\"]}]}}]}";
  }

  private static ShardSetModel parse(String modelText, Path folder) {
    final ModelDocuments.SchemaOperand schema =
        ModelDocuments.shardSetSchemas(modelText, "test").get(0);
    final Map<String, Object> operand = new LinkedHashMap<>(ModelDocuments.operand(
        new ModelCatalog.Version("S", 1, schema.operand(), java.time.Instant.EPOCH, "t")));
    operand.put("baseDirectory", folder.toFile());
    return ModelParser.parse("S", operand, name -> name.equals("SHARD_PW") ? "" : null);
  }

  private void roundTrip(CatalogSpec spec) throws Exception {
    final ModelCatalog catalog = ModelCatalog.of(spec);
    catalog.create();
    catalog.create();
    final String text = model("${env:SHARD_PW}");
    final ModelDocuments.SchemaOperand schema =
        ModelDocuments.shardSetSchemas(text, "model.json").get(0);
    assertEquals(1, catalog.publish("S", 0, schema.operand(), "test").number());
    assertEquals(2, catalog.publish("S", 1, schema.operand(), "test again").number());
    final SQLException second = assertThrows(SQLException.class,
        () -> catalog.publish("S", 1, schema.operand(), "a late writer"));
    assertEquals("40001", second.getSQLState());
    assertEquals("the model of schema 'S' in the " + spec + " changed meanwhile: version 2"
        + " was written by another process; read it and try again", second.getMessage());
    final ModelCatalog.Version current = catalog.current("S").orElseThrow();
    assertEquals(2, current.number());
    assertEquals("test again", current.createdBy());
    assertEquals(List.of(1L, 2L), catalog.history().stream()
        .map(ModelCatalog.Version::number).toList());
    assertTrue(catalog.current("OTHER").isEmpty());

    // Exported, the model file parses to the same model as the one put in.
    final String exported = ModelDocuments.modelFile(catalog.version("S", 1).orElseThrow());
    assertEquals(parse(text, folder), parse(exported, folder));
  }

  @Test void keepsVersionsOnH2() throws Exception {
    roundTrip(new CatalogSpec("jdbc:h2:" + folder.resolve("catalog"), "sa", ""));
  }

  @Test void keepsVersionsOnPostgres() throws Exception {
    PostgresServer.require();
    final List<String> databases = PostgresServer.createDatabases("catalog", 1);
    try {
      roundTrip(new CatalogSpec(PostgresServer.url(databases.get(0)), PostgresServer.USER,
          ""));
    } finally {
      PostgresServer.drop(databases);
    }
  }

  @Test void aPasswordInClearTextIsRefusedWithoutShowingIt() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ModelDocuments.shardSetSchemas(model(SECRET), "model.json"));
    assertEquals("schema 'S': shards[0].jdbcPassword holds a password; the catalog keeps"
        + " none: write ${env:NAME} there and set NAME in the environment of every process"
        + " that opens the model", e.getMessage());
    assertFalse(e.getMessage().contains(SECRET));
  }

  @Test void passwordsInUrlsAndOfOtherTypesAreRefusedAndNeverShown() {
    for (String shard : List.of("\"jdbcUrl\": \"jdbc:postgresql://h/db?user=a&password=" + SECRET
        + "\"", "\"jdbcUrl\": \"jdbc:mariadb://a:" + SECRET + "@h/db\"",
        "\"jdbcUrl\": \"jdbc:h2:mem:x\", \"jdbcPassword\": 1234")) {
      final String text = model("").replace("\"jdbcUrl\": \"jdbc:h2:${modelDir}/s0\"", shard)
          .replace("\"jdbcUser\": \"sa\", \"jdbcPassword\": \"\"}, {\"name\": \"s1\"",
              (shard.contains("1234") ? "\"jdbcUser\": \"sa\"" : "\"jdbcUser\": \"sa\","
                  + " \"jdbcPassword\": \"\"") + "}, {\"name\": \"s1\"");
      final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ModelDocuments.shardSetSchemas(text, "model.json"), shard);
      assertTrue(e.getMessage().startsWith("schema 'S': shards[0].jdbc"), e.getMessage());
      assertFalse(e.getMessage().contains(SECRET) || e.getMessage().contains("1234"));
    }
    assertEquals("catalog jdbc:postgresql://someone:****@db.example.com/catalog as someone",
        new CatalogSpec("jdbc:postgresql://someone:" + SECRET + "@db.example.com/catalog"
            + "?password=" + SECRET, "someone", SECRET).toString());
    assertEquals("catalog jdbc:h2:/tmp/catalog", new CatalogSpec("jdbc:h2:/tmp/catalog;PASSWORD="
        + SECRET, "", "").toString());
  }

  @Test void aPointerSetsTheLeaseAndPollIntervalWithinLimits() {
    final Map<String, Object> catalog = new LinkedHashMap<>(Map.of("jdbcUrl", "jdbc:h2:mem:c",
        "leaseMillis", 6_000, "pollMillis", 500));
    assertEquals(new CatalogSpec("jdbc:h2:mem:c", "", "", 6_000, 500),
        ModelParser.catalog("S", Map.of("catalog", catalog), name -> null));
    // Without pollMillis: a second, or a third of a shorter lease.
    catalog.put("leaseMillis", 1_500);
    catalog.remove("pollMillis");
    assertEquals(500, ModelParser.catalog("S", Map.of("catalog", catalog), name -> null)
        .pollMillis());
    catalog.put("pollMillis", 600);
    final ModelException tooSlow = assertThrows(ModelException.class,
        () -> ModelParser.catalog("S", Map.of("catalog", catalog), name -> null));
    assertEquals("Invalid ShardSet model: schema 'S', field 'catalog.pollMillis': must be at"
        + " most a third of leaseMillis (1500), so that a process renews its lease in time;"
        + " got 600", tooSlow.getMessage());
  }

  @Test void aModelFilePointingAtTheCatalogOpensAsTheModel() throws Exception {
    for (int i = 0; i < 2; i++) {
      try (Connection c = DriverManager.getConnection("jdbc:h2:" + folder.resolve("s" + i),
          "sa", ""); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE T (ID BIGINT PRIMARY KEY, V VARCHAR(10))");
      }
    }
    final CatalogSpec spec = new CatalogSpec("jdbc:h2:" + folder.resolve("catalog"), "sa",
        "");
    final ModelCatalog catalog = ModelCatalog.of(spec);
    catalog.create();
    catalog.publish("S", 0, ModelDocuments.shardSetSchemas(model(""), "model.json").get(0)
        .operand(), "test");
    final Path pointer = folder.resolve("pointer.json");
    Files.writeString(pointer, ModelDocuments.pointerFile("S", spec));
    assertFalse(Files.readString(pointer).contains("jdbcPassword"));
    try (Connection c = DriverManager.getConnection("jdbc:shardset:model=" + pointer);
         Statement s = c.createStatement()) {
      assertEquals(3, s.executeUpdate("INSERT INTO T VALUES (1, 'a'), (2, 'b'), (3, 'c')"));
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM T")) {
        assertTrue(rs.next());
        assertEquals(3, rs.getInt(1));
      }
    }
    long rows = 0;
    for (int i = 0; i < 2; i++) {
      try (Connection c = DriverManager.getConnection("jdbc:h2:" + folder.resolve("s" + i),
          "sa", ""); Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM T")) {
        rs.next();
        rows += rs.getLong(1);
      }
    }
    assertEquals(3, rows);

    // A schema the catalog does not hold, and a catalog that cannot be reached.
    Files.writeString(pointer, ModelDocuments.pointerFile("S", spec).replace("\"S\"",
        "\"OTHER\""));
    // Calcite reports a schema its factory cannot make as a RuntimeException; the cause says why.
    final Exception missing = assertThrows(Exception.class,
        () -> DriverManager.getConnection("jdbc:shardset:model=" + pointer).close());
    assertTrue(String.valueOf(rootMessage(missing)).equals("the " + spec + " holds no model"
        + " of schema 'OTHER'; put one there with 'shardset catalog init'"),
        rootMessage(missing));
    final CatalogSpec down = new CatalogSpec("jdbc:postgresql://127.0.0.1:1/catalog",
        "someone", SECRET);
    final Map<String, Object> operand = new LinkedHashMap<>();
    operand.put("catalog", Map.of("jdbcUrl", down.jdbcUrl(), "jdbcUser", down.user(),
        "jdbcPassword", SECRET));
    operand.put("baseDirectory", new File(folder.toString()));
    final IllegalArgumentException unreachable = assertThrows(IllegalArgumentException.class,
        () -> CatalogOperands.newest(ModelParser.catalog("S", operand, name -> null), "S"));
    assertTrue(unreachable.getMessage().startsWith("cannot read the model of schema 'S' from"
        + " the catalog jdbc:postgresql://127.0.0.1:1/catalog as someone: cannot connect to"
        + " the catalog jdbc:postgresql://127.0.0.1:1/catalog as someone: "),
        unreachable.getMessage());
    assertFalse(unreachable.getMessage().contains(SECRET));
  }

  private static String rootMessage(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause.getMessage();
  }
}
