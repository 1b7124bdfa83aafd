package io.shardset.reshard;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.execution.ShardConnectionSettings;
import io.shardset.model.ChunkMapSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.routing.KeyHasher;
import io.shardset.routing.KeyType;
import io.shardset.testing.Backend;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Counting the rows that adding shard s4 to shards s0..s3 moves, checked against placements
 * the test computes itself from the two chunk maps' hash ranges.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RowCounterTest {
  private static final long QUARTER = ChunkMapSpec.HASH_SPACE / 4;
  /** The part of each quarter that stays; the rest of it goes to s4. */
  private static final long KEPT = QUARTER * 4 / 5;
  private static final String[] SHARDS = {"s0", "s1", "s2", "s3"};
  private static final String TABLES = """
      [{"name": "ORDERS", "method": "consistent-hash", "shardKey": ["ID"]},
       {"name": "EVENTS", "method": "consistent-hash", "shardKey": ["SRC", "SEQ"]},
       {"name": "ACCOUNTS", "method": "composite", "shardKey": ["CUST_ID"],
        "partitionBy": {"column": "REGION", "method": "list",
          "sets": [{"name": "eu", "values": ["eu"], "shardspace": "default"},
                   {"name": "us", "values": ["us"], "shardspace": "us"}]}},
       {"name": "SHIPMENTS", "method": "consistent-hash", "shardKey": ["ID"],
        "subpartitions": {"column": "YR", "physicalName": "SHIPMENTS_{name}",
          "ranges": [{"name": "P1", "to": 2020}, {"name": "P2", "from": 2020}]}},
       {"name": "REGIONS", "method": "duplicated"}]""";

  private Backend.Databases databases;
  /** The expected counts, as the test computes them: table -> {rows, moved, modulo moved}. */
  private final Map<String, long[]> expectedTables = new HashMap<>();
  private final Map<List<String>, Long> expectedPairs = new TreeMap<>(
      (a, b) -> (a.get(0) + " " + a.get(1)).compareTo(b.get(0) + " " + b.get(1)));

  @BeforeAll void load() throws SQLException {
    databases = Backend.H2.create("reshard_prep_count", 5);
    for (ShardConnectionSettings shard : databases.shards()) {
      ReshardModels.execute(shard,
          "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, NOTE VARCHAR(20))",
          "CREATE TABLE EVENTS (SRC VARCHAR(10), SEQ INTEGER, PRIMARY KEY (SRC, SEQ))",
          "CREATE TABLE ACCOUNTS (REGION VARCHAR(4), CUST_ID BIGINT,"
              + " PRIMARY KEY (REGION, CUST_ID))",
          "CREATE TABLE SHIPMENTS_P1 (ID BIGINT, YR INTEGER)",
          "CREATE TABLE SHIPMENTS_P2 (ID BIGINT, YR INTEGER)",
          "CREATE TABLE REGIONS (CODE VARCHAR(4) PRIMARY KEY)",
          "INSERT INTO REGIONS VALUES ('eu'), ('us')");
    }
    final List<KeyType> number = List.of(KeyType.NUMBER);
    for (long id = 1; id <= 4000; id++) {
      insert("ORDERS", number, List.of(id), List.of(id, "order " + id), null);
    }
    for (int seq = 0; seq < 1000; seq++) {
      final List<Object> key = List.of("src" + seq % 7, seq);
      insert("EVENTS", List.of(KeyType.STRING, KeyType.NUMBER), key, key, null);
    }
    for (long id = 1; id <= 1200; id++) {
      final String region = id % 3 == 0 ? "us" : "eu";
      insert("ACCOUNTS", number, List.of(id), List.of(region, id),
          region.equals("us") ? "u0" : null);
    }
    for (long id = 1; id <= 900; id++) {
      final int year = 2018 + (int) (id % 4);
      insert(year < 2020 ? "SHIPMENTS_P1" : "SHIPMENTS_P2", number, List.of(id),
          List.of(id, year), null);
    }
  }

  /**
   * Writes a row to the shard the 4-shard chunk map places it on (or to {@code shard}, a
   * shard of another shardspace, where it is not counted), and counts where it goes.
   */
  private void insert(String table, List<KeyType> types, List<Object> key, List<Object> row,
      String shard) throws SQLException {
    final long hash = KeyHasher.hash(KeyHasher.keyBytes(types, key));
    final String before = shard != null ? shard : ownerBefore(hash);
    try (Connection c = ReshardModels.connect(databases.shards().get(before.equals("u0") ? 4
            : List.of(SHARDS).indexOf(before)));
         PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES ("
             + (row.size() == 2 ? "?, ?" : "?") + ")")) {
      for (int i = 0; i < row.size(); i++) {
        p.setObject(i + 1, row.get(i));
      }
      p.executeUpdate();
    }
    if (shard != null) {
      return;
    }
    // Both subpartition tables hold rows of the logical table SHIPMENTS.
    final long[] counts = expectedTables.computeIfAbsent(
        table.startsWith("SHIPMENTS_") ? "SHIPMENTS" : table, t -> new long[3]);
    counts[0]++;
    final String after = ownerAfter(hash);
    if (!after.equals(before)) {
      counts[1]++;
      expectedPairs.merge(List.of(before, after), 1L, Long::sum);
    }
    if (hash % 4 != hash % 5) {
      counts[2]++;
    }
  }

  private static String ownerBefore(long hash) {
    return SHARDS[(int) (hash / QUARTER)];
  }

  private static String ownerAfter(long hash) {
    return hash % QUARTER < KEPT ? ownerBefore(hash) : "s4";
  }

  @AfterAll void close() throws SQLException {
    if (databases != null) {
      databases.close();
    }
  }

  /** The model over s0..s3 and u0, plus s4 when it has joined. */
  private ShardSetModel model(boolean withS4) {
    final StringJoiner shards = new StringJoiner(",\n ", "[", "]");
    final StringJoiner chunkMap = new StringJoiner(",\n ", "[", "]");
    for (int i = 0; i < 4; i++) {
      shards.add(shard(SHARDS[i], databases.shards().get(i).jdbcUrl(), "default"));
      if (withS4) {
        chunkMap.add(range(i * QUARTER, i * QUARTER + KEPT, SHARDS[i]));
        chunkMap.add(range(i * QUARTER + KEPT, (i + 1) * QUARTER, "s4"));
      } else {
        chunkMap.add(range(i * QUARTER, (i + 1) * QUARTER, SHARDS[i]));
      }
    }
    shards.add(shard("u0", databases.shards().get(4).jdbcUrl(), "us"));
    chunkMap.add(range(0, ChunkMapSpec.HASH_SPACE, "u0"));
    if (withS4) {
      shards.add(shard("s4", "jdbc:h2:mem:reshard_prep_never_opened", "default"));
    }
    return ReshardModels.parse("{\"shards\": " + shards + ",\n \"chunkMap\": " + chunkMap
        + ",\n \"tables\": " + TABLES + "}");
  }

  private static String shard(String name, String url, String shardspace) {
    return "{\"name\": \"" + name + "\", \"jdbcUrl\": \"" + url + "\", \"jdbcUser\": \"sa\","
        + " \"shardspace\": \"" + shardspace + "\"}";
  }

  private static String range(long from, long to, String shard) {
    return "{\"from\": " + from + ", \"to\": " + to + ", \"shard\": \"" + shard + "\"}";
  }

  @Test void countsTheRowsThatMoveAndWhatHashModuloWouldMove() {
    final ShardSetModel before = model(false);
    final RowCount count = new RowCounter(before, ShardSetRuntime.get().topology().tables(before),
        model(true)).count("default", 4, 5);
    final List<RowCount.TableCount> tables = new ArrayList<>();
    for (String table : List.of("ORDERS", "EVENTS", "ACCOUNTS", "SHIPMENTS")) {
      final long[] c = expectedTables.get(table);
      tables.add(new RowCount.TableCount(table, c[0], c[1], c[2]));
    }
    final List<RowCount.PairCount> pairs = new ArrayList<>();
    expectedPairs.forEach((pair, rows) ->
        pairs.add(new RowCount.PairCount(pair.get(0), pair.get(1), rows)));
    assertEquals(new RowCount("default", pairs, tables, 4, 5), count);
    // ACCOUNTS' rows of set "us" live in shardspace "us": 800 of 1200 rows count.
    assertEquals(4000 + 1000 + 800 + 900, count.totalRows());
    assertEquals(4, count.pairs().size());
    // A fifth of each shard's hash range moves; hash % 5 moves four rows in five.
    assertTrue(Math.abs(count.movedFraction() - 0.2) < 0.03, "moved " + count.movedFraction());
    assertTrue(Math.abs(count.moduloMovedFraction() - 0.8) < 0.03,
        "modulo moved " + count.moduloMovedFraction());
  }

  @Test void countsWhatHashModuloWouldMoveWhenAShardLeaves() {
    final ShardSetModel before = model(false);
    final RowCount count = new RowCounter(before, ShardSetRuntime.get().topology().tables(before),
        before).count("default", 4, 3);
    assertEquals(List.of(), count.pairs());
    assertEquals(0, count.movedRows());
    long expected = 0;
    for (long id = 1; id <= 4000; id++) {
      final long hash = KeyHasher.hash(KeyHasher.keyBytes(List.of(KeyType.NUMBER),
          List.of(BigDecimal.valueOf(id))));
      expected += hash % 4 != hash % 3 ? 1 : 0;
    }
    assertEquals(expected, count.tables().get(0).moduloMovedRows());
  }
}
