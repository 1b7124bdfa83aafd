package io.shardset.calcite;

import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.shardset.testing.PostgresItems.awaitValue;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The scans of a statement that joins above the shards, on a {@code jdbc:shardset:}
 * connection, send their shard statements when the statement starts, not when the join first
 * reads them; only where every shard's pool has room (half of it), and a scan that is never
 * read gives its room back when its execution ends.
 */
class EarlyScanTest {
  private static final String TABLES = "\"tables\": ["
      + "{\"name\": \"A\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]},"
      + "{\"name\": \"B\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]";
  /** A join on a column that is not the shard key: two scans, joined above the shards. */
  private static final String JOIN = "SELECT a.ID, b.ID FROM A a JOIN B b ON b.K = a.K";

  private final ExecutorService executor = Executors.newSingleThreadExecutor();
  private ShardFixture fixture;

  @BeforeEach void load() throws SQLException {
    fixture = ShardFixture.h2(4, "CREATE TABLE A (ID INTEGER PRIMARY KEY, K INTEGER)",
        "CREATE TABLE B (ID INTEGER PRIMARY KEY, K INTEGER)");
    try (Connection c = Connector.SHARDSET.open(fixture.model(TABLES))) {
      final List<Object[]> rows = new ArrayList<>();
      for (int id = 1; id <= 200; id++) {
        rows.add(new Object[] {id, id % 37});
      }
      fixture.load(c, "A", rows);
      fixture.load(c, "B", rows);
    }
  }

  @AfterEach void close() throws SQLException {
    executor.shutdownNow();
    fixture.close();
  }

  @Test void bothScansAreSentBeforeEitherIsRead() throws Exception {
    try (Connection c = Connector.SHARDSET.open(fixture.model(TABLES))) {
      final CountDownLatch gate = new CountDownLatch(1);
      fixture.shards().holdFirstRows(gate);
      final Future<List<String>> rows = readAll(c);
      // The join waits for the first rows of the side it reads first; the other side's
      // statements went out when the statement started.
      awaitValue(8, () -> sent("\"A\"") + sent("\"B\""));
      gate.countDown();
      assertEquals(fixture.oracleRows(JOIN).stream().sorted().toList(),
          ShardFixture.sorted(rows.get(1, TimeUnit.MINUTES)));
    }
    assertEquals(0, fixture.shards().openNow().statements());
  }

  @Test void aPoolWithoutRoomStartsNothingEarly() throws Exception {
    // Half of a pool of one connection is none.
    try (Connection c = Connector.SHARDSET.open(fixture.model(TABLES, "\"poolSize\": 1", ""))) {
      final CountDownLatch gate = new CountDownLatch(1);
      fixture.shards().holdFirstRows(gate);
      final Future<List<String>> rows = readAll(c);
      awaitValue(1, () -> Math.min(1, sent("\"A\"") + sent("\"B\"")));
      assertEquals(0, Math.min(sent("\"A\""), sent("\"B\"")),
          "statements of the side not read yet");
      gate.countDown();
      assertEquals(fixture.oracleRows(JOIN).size(), rows.get(1, TimeUnit.MINUTES).size());
    }
  }

  @Test void scansThatAreNeverReadGiveTheirRoomBack() throws Exception {
    // A pool of four has room for two early scans per shard: one statement's two scans.
    try (Connection c = Connector.SHARDSET.open(fixture.model(TABLES, "\"poolSize\": 4", ""))) {
      // A join with a side without rows does not read the other side: five times, more than
      // the room would hold if unread scans kept theirs.
      for (int i = 0; i < 5; i++) {
        for (String empty : List.of("a", "b")) {
          assertEquals(List.of(), ShardFixture.rows(c, JOIN + " WHERE " + empty + ".K < 0"));
        }
      }
      fixture.shards().resetCounters();
      final CountDownLatch gate = new CountDownLatch(1);
      fixture.shards().holdFirstRows(gate);
      final Future<List<String>> rows = readAll(c);
      awaitValue(8, () -> sent("\"A\"") + sent("\"B\""));
      gate.countDown();
      assertEquals(fixture.oracleRows(JOIN).size(), rows.get(1, TimeUnit.MINUTES).size());
    }
    assertEquals(0, fixture.shards().openNow().statements());
  }

  /** The join's rows, read on another thread. */
  private Future<List<String>> readAll(Connection c) {
    return executor.submit(() -> {
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(JOIN)) {
        return ShardFixture.rows(rs);
      }
    });
  }

  /** How many shards received a statement reading {@code table}. */
  private int sent(String table) {
    int shards = 0;
    for (String shard : fixture.shards().names()) {
      if (fixture.shards().executions(shard).stream().anyMatch(e -> e.sql().contains(table))) {
        shards++;
      }
    }
    return shards;
  }
}
