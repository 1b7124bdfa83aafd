package io.shardset.calcite;

import io.shardset.testing.CountingShards;
import io.shardset.testing.ShardFixture;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Opening a connection reads the shards' metadata once per model version: connections that
 * open on a model already open read no shard, connections that open together read each shard
 * once, and a changed model file is read again; while a schema that cannot be built fails
 * every connection with the error reading the shards one after the other gives.
 */
class ConnectionOpeningTest {
  static final String[] DDL = {
      "CREATE TABLE T (K INT PRIMARY KEY, V VARCHAR(10))",
      "CREATE TABLE R (CODE CHAR(2) PRIMARY KEY, NAME VARCHAR(20))"};
  static final String TABLES = "\"tables\": ["
      + "{\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]},"
      + " {\"name\": \"R\", \"method\": \"duplicated\"}]";

  private ShardFixture fixture;
  private ShardSetRuntime runtime;

  @BeforeEach void createShards() {
    fixture = ShardFixture.h2(8, DDL);
    runtime = new ShardSetRuntime();
  }

  @AfterEach void closeShards() throws SQLException {
    runtime.close();
    fixture.close();
  }

  @Test void aConnectionOnAModelAlreadyOpenReadsNoShard() {
    final CountingShards shards = fixture.shards();
    final ShardSchema first = runtime.connect("S", operand(TABLES));
    for (String shard : shards.names()) {
      assertTrue(shards.metadataRequests(shard) > 0, shard);
    }
    shards.resetCounters();
    final ShardSchema second = runtime.connect("S", operand(TABLES));
    assertEquals(0, shards.metadataRequests());
    assertSame(first.table("T"), second.table("T"));

    // Another model on the same shards is read again.
    runtime.connect("S", operand("\"parallelism\": 2, " + TABLES));
    assertTrue(shards.metadataRequests() > 0);
  }

  @Test void connectionsOpeningTogetherReadEachShardOnce() throws Exception {
    final CountingShards shards = fixture.shards();
    // The first schema of the shards also starts their transaction coordinator.
    runtime.connect("S", operand(TABLES));
    shards.resetCounters();
    runtime.connect("S", operand("\"parallelism\": 2, " + TABLES));
    final Map<String, Integer> once = new HashMap<>();
    shards.names().forEach(shard -> once.put(shard, shards.metadataRequests(shard)));
    shards.resetCounters();

    // The same tables in another model: four connections at once read what one did.
    final Map<String, Object> other = operand("\"parallelism\": 3, " + TABLES);
    final int clients = 4;
    final CyclicBarrier start = new CyclicBarrier(clients);
    final ExecutorService threads = Executors.newFixedThreadPool(clients);
    try {
      final List<Future<ShardSchema>> opened = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        final Callable<ShardSchema> open = () -> {
          start.await(1, TimeUnit.MINUTES);
          return runtime.connect("S", other);
        };
        opened.add(threads.submit(open));
      }
      final ShardSchema first = opened.get(0).get(1, TimeUnit.MINUTES);
      for (Future<ShardSchema> schema : opened) {
        assertSame(first.table("T"), schema.get(1, TimeUnit.MINUTES).table("T"));
      }
    } finally {
      threads.shutdownNow();
    }
    shards.names().forEach(shard ->
        assertEquals(once.get(shard), shards.metadataRequests(shard), shard));
  }

  @Test void aChangedModelFileIsReadAgain(@TempDir Path dir) throws IOException {
    final Path file = dir.resolve("model.json");
    final String oneTable = "\"tables\": ["
        + "{\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]";
    Files.writeString(file, fixture.model(oneTable), StandardCharsets.UTF_8);
    final ShardSchema before = runtime.connect("S", fileOperand(file));
    assertEquals(List.of("T"), before.tableNames());
    fixture.shards().resetCounters();
    final ShardTable first = before.table("T");
    assertSame(first, runtime.connect("S", fileOperand(file)).table("T"));
    assertEquals(0, fixture.shards().metadataRequests());

    Files.writeString(file, fixture.model(TABLES), StandardCharsets.UTF_8);
    final ShardSchema after = runtime.connect("S", fileOperand(file));
    assertEquals(List.of("R", "T"), after.tableNames());
    assertNotSame(first, after.table("T"));
    assertTrue(fixture.shards().metadataRequests() > 0);
    // The schema of the first connection follows the file too, on the same new tables.
    assertEquals(List.of("R", "T"), before.tableNames());
    assertSame(after.table("T"), before.table("T"));
  }

  @Test void shardsThatDisagreeFailEveryConnectionAsWhenReadInTurn() {
    fixture.shards().execute("s5", "ALTER TABLE T ADD COLUMN EXTRA INT");
    fixture.shards().execute("s3", "ALTER TABLE T ADD COLUMN OTHER INT");
    final String expected = "Invalid ShardSet model: schema 'S', table 'T', field 'columns':"
        + " shard 's3' has 3 columns (K, V, OTHER) where shard 's0' has 2 (K, V)";
    assertEquals(expected, connectFails().getMessage());
    // A failed build is not kept: the next connection reads the shards again.
    fixture.shards().resetCounters();
    assertEquals(expected, connectFails().getMessage());
    assertTrue(fixture.shards().metadataRequests("s3") > 0);

    fixture.shards().execute("s3", "ALTER TABLE T DROP COLUMN OTHER");
    fixture.shards().execute("s5", "ALTER TABLE T DROP COLUMN EXTRA");
    assertEquals(List.of("R", "T"), runtime.connect("S", operand(TABLES)).tableNames());
  }

  @Test void aMissingTableFailsBeforeShardsThatDisagree() {
    fixture.shards().execute("s2", "ALTER TABLE T ADD COLUMN EXTRA INT");
    fixture.shards().execute("s6", "DROP TABLE T");
    final String expected = "Invalid ShardSet model: schema 'S', table 'T', field"
        + " 'physicalName': table 'T' not found on shard 's6'";
    assertEquals(expected, connectFails().getMessage());
    assertEquals(expected, connectFails().getMessage());
  }

  @Test void anUnreachableShardFailsEveryConnection() {
    final String dead = "{\"name\": \"dead\", \"jdbcUrl\": \"jdbc:h2:tcp://127.0.0.1:1/none\","
        + " \"jdbcUser\": \"sa\", \"connectTimeout\": 250}";
    final String json = fixture.model(TABLES);
    final int second = json.indexOf("},", json.indexOf("\"shards\"")) + 2;
    final Map<String, Object> operand =
        operandOf(json.substring(0, second) + dead + ", " + json.substring(second));
    for (int attempt = 0; attempt < 2; attempt++) {
      final RuntimeException e =
          assertThrows(RuntimeException.class, () -> runtime.connect("S", operand));
      final String message = ExecutionResourcesTest.messages(e);
      assertTrue(message.startsWith("shard 'dead' failed: cannot read the columns of table"
          + " 'T' (shardset-dead - Connection is not available, request timed out after"),
          message);
      assertTrue(message.contains("), and no earlier connection of this process has read"
          + " them"), message);
    }
  }

  private RuntimeException connectFails() {
    return assertThrows(RuntimeException.class, () -> runtime.connect("S", operand(TABLES)));
  }

  /** The operand of the fixture's model of these entries, as Calcite hands it over. */
  private Map<String, Object> operand(String entries) {
    return operandOf(fixture.model(entries));
  }

  /** The operand of a model file, with the {@code modelUri} Calcite's model handler adds. */
  private Map<String, Object> fileOperand(Path file) throws IOException {
    final Map<String, Object> operand =
        new LinkedHashMap<>(operandOf(Files.readString(file, StandardCharsets.UTF_8)));
    operand.put("modelUri", file.toString());
    return operand;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> operandOf(String model) {
    try {
      final Map<String, Object> root = new ObjectMapper().readValue(model, Map.class);
      final List<Map<String, Object>> schemas = (List<Map<String, Object>>) root.get("schemas");
      return (Map<String, Object>) schemas.get(0).get("operand");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
