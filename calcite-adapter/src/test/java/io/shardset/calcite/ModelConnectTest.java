package io.shardset.calcite;

import io.shardset.model.ModelException;
import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Models reach the schema factory through Calcite's own model handling, and a broken model
 * fails the connection with the one error that names what is wrong.
 */
class ModelConnectTest {
  private static ShardFixture fixture;

  @BeforeAll static void setUp() throws SQLException {
    fixture = SalesData.fixture(Backend.H2);
  }

  @AfterAll static void tearDown() throws SQLException {
    fixture.close();
  }

  @Test void modelFileByAbsolutePath(@TempDir Path dir) throws Exception {
    final Path model = dir.resolve("model.json");
    Files.writeString(model, SalesData.model(fixture), StandardCharsets.UTF_8);
    try (Connection c = DriverManager.getConnection("jdbc:calcite:model=" + model);
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM CUSTOMERS")) {
      assertTrue(rs.next());
      assertEquals(0, rs.getLong(1));
    }
  }

  @Test void unknownShardKeyColumn() {
    final ModelException e = connectFails(
        "\"tables\": [{\"name\": \"CUSTOMERS\", \"method\": \"consistent-hash\","
            + " \"shardKey\": [\"CUSTID\"]}]");
    assertEquals("CUSTOMERS", e.table());
    assertEquals("shardKey", e.field());
    assertTrue(e.getMessage().startsWith("Invalid ShardSet model: schema 'S', table"
        + " 'CUSTOMERS', field 'shardKey': column 'CUSTID' does not exist"), e.getMessage());
  }

  @Test void unknownMethod() {
    final ModelException e = connectFails(
        "\"tables\": [{\"name\": \"CUSTOMERS\", \"method\": \"hash\","
            + " \"shardKey\": [\"CUSTOMER_ID\"]}]");
    assertEquals("Invalid ShardSet model: schema 'S', table 'CUSTOMERS', field 'method':"
        + " unknown method 'hash'; expected one of consistent-hash, range, list, duplicated,"
        + " composite, lookup",
        e.getMessage());
  }

  @Test void missingPhysicalTable() {
    final ModelException e = connectFails(
        "\"tables\": [{\"name\": \"NOPE\", \"method\": \"duplicated\"}]");
    assertEquals("NOPE", e.table());
    assertEquals("physicalName", e.field());
  }

  @Test void overlappingRanges() {
    final ModelException e = connectFails("\"tables\": [{\"name\": \"EVENTS\","
        + " \"method\": \"range\", \"shardKey\": [\"EVENT_DAY\"], \"ranges\": ["
        + "{\"shard\": \"s0\", \"to\": \"2021-01-01\"},"
        + " {\"shard\": \"s1\", \"from\": \"2020-01-01\"}]}]");
    assertEquals("EVENTS", e.table());
    assertEquals("ranges", e.field());
  }

  /** Connects with a model of the given tables and returns the model error it fails with. */
  private static ModelException connectFails(String tables) {
    final Exception e = assertThrows(Exception.class, () -> {
      try (Connection c = ShardFixture.connect(fixture.model(tables))) {
        c.getMetaData();
      }
    });
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ModelException model) {
        return model;
      }
    }
    throw new AssertionError("no ModelException in " + ExecutionResourcesTest.messages(e), e);
  }
}
