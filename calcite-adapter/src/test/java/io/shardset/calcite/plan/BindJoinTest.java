package io.shardset.calcite.plan;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.schema.Table;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bind joins on H2 shards (subclasses run the same on PostgreSQL and MariaDB): a side that
 * filters a small table hands its keys to the shard scan of a large table sharded on another
 * key, whose shards then send only the rows that can join, and the rows are those of an
 * unsharded copy, for every category and price range of a sweep.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BindJoinTest {
  private static final String[] DDL = {
      "CREATE TABLE ITEMS (ITEM_ID INTEGER PRIMARY KEY, CATEGORY VARCHAR(10) NOT NULL,"
          + " PRICE INTEGER NOT NULL)",
      "CREATE TABLE SALES (SALE_ID INTEGER PRIMARY KEY, ITEM_ID INTEGER, QTY INTEGER NOT NULL)",
      "CREATE TABLE LOTS (LOT_ID INTEGER PRIMARY KEY, ITEM_ID INTEGER NOT NULL,"
          + " UNITS INTEGER NOT NULL)"};
  private static final String TABLES = "\"tables\": ["
      + "{\"name\": \"ITEMS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ITEM_ID\"]},"
      + "{\"name\": \"SALES\", \"method\": \"consistent-hash\", \"shardKey\": [\"SALE_ID\"]},"
      // Ranged on the item: not co-located with ITEMS, so joins of the two are bind joins.
      + "{\"name\": \"LOTS\", \"method\": \"range\", \"shardKey\": [\"ITEM_ID\"], \"ranges\": ["
      + "{\"shard\": \"s0\", \"to\": 100}, {\"shard\": \"s1\", \"from\": 100, \"to\": 200},"
      + "{\"shard\": \"s2\", \"from\": 200, \"to\": 300}, {\"shard\": \"s3\", \"from\": 300}]}]";
  private static final int ITEMS = 400;
  private static final int SALES = 6_000;
  /** Sales refer to items up to this id, so that some refer to none. */
  private static final int ITEM_IDS = 450;
  private static final int LOTS = 2_000;

  private ShardFixture fixture;
  private Connection connection;

  /** The database the shards run on. */
  Backend backend() {
    return Backend.H2;
  }

  /** The rows a transaction reads from each shard it enlists, besides its statements'. */
  int transactionRowsPerShard() {
    return 0;
  }

  /** The statement that makes the shards' row estimates those of their tables now. */
  String analyze() {
    return "ANALYZE";
  }

  @BeforeAll void load() throws SQLException {
    fixture = ShardFixture.create(backend(), 4, DDL);
    connection = ShardFixture.connect(fixture.model(TABLES));
    final List<Object[]> items = new ArrayList<>();
    for (int id = 0; id < ITEMS; id++) {
      items.add(new Object[] {id, "c" + id % 40, id});
    }
    fixture.load(connection, "ITEMS", items);
    final List<Object[]> sales = new ArrayList<>();
    for (int id = 0; id < SALES; id++) {
      sales.add(new Object[] {id, id % 97 == 0 ? null : id % ITEM_IDS, id % 7});
    }
    fixture.load(connection, "SALES", sales);
    final List<Object[]> lots = new ArrayList<>();
    for (int id = 0; id < LOTS; id++) {
      lots.add(new Object[] {id, id % ITEMS, id % 11});
    }
    fixture.load(connection, "LOTS", lots);
    // The shards' estimates, which PostgreSQL and MariaDB update in the background.
    fixture.shards().executeOnAll(analyze());
    awaitRowCounts();
  }

  /**
   * Waits until the planner knows both tables' row counts, which it reads from the shards
   * in the background (waiting at most two seconds when it first asks): a bind join is
   * planned on them.
   */
  private void awaitRowCounts() throws SQLException {
    final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    for (String name : List.of("ITEMS", "SALES", "LOTS")) {
      final Table table = ShardFixture.schema(connection).tables().get(name);
      while (table.getStatistic().getRowCount() == null) {
        assertTrue(System.nanoTime() < deadline, "the row count of " + name + " is not known");
      }
    }
  }

  @AfterAll void close() throws SQLException {
    if (connection != null) {
      connection.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test void aFilteredSideSendsItsKeysIntoTheOtherSidesShardSql() {
    // Category c7: items 7, 47, ..., 367 (10), sold 13 or 14 times each.
    fixture.sql(connection, "SELECT s.SALE_ID, i.PRICE FROM SALES s"
            + " JOIN ITEMS i ON s.ITEM_ID = i.ITEM_ID WHERE i.CATEGORY = 'c7'")
        .explainContains("EnumerableBindKeys(key=[ITEM_ID], maxKeys=[" + BindJoins.MAX_KEYS + "])",
            "bindKeys=[ITEM_ID]")
        .sendsToEachReachedShard("WITH shardset_keys (c0, c1) AS (SELECT ",
            ") SELECT * FROM shardset_keys WHERE c1 IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .readsRows(10 + 133)
        .returnsUnsharded();
  }

  @Test void keysOfTheScansShardKeyGoOnlyToTheShardsThatHoldThem() {
    // Category c7: items 7, 47, ..., 367, five lots each; LOTS is ranged by the hundred.
    fixture.sql(connection, "SELECT l.LOT_ID, i.PRICE FROM ITEMS i"
            + " JOIN LOTS l ON l.ITEM_ID = i.ITEM_ID WHERE i.CATEGORY = 'c7'")
        .explainContains("bindKeys=[ITEM_ID]")
        .sendsTo("s0", "shardset_keys", "IN (?, ?, ?)")
        .sendsTo("s1", "shardset_keys", "IN (?, ?)")
        .sendsTo("s2", "shardset_keys", "IN (?, ?, ?)")
        .sendsTo("s3", "shardset_keys", "IN (?, ?)")
        .readsRows(10 + 50)
        .returnsUnsharded();
    // Items 0 to 50 are all on s0: the other shards are not asked for lots.
    fixture.sql(connection, "SELECT l.LOT_ID, l.UNITS, i.ITEM_ID FROM ITEMS i"
            + " JOIN LOTS l ON l.ITEM_ID = i.ITEM_ID WHERE i.PRICE BETWEEN 0 AND 50")
        .sendsTo("s0", "shardset_keys")
        .sendsNothingContaining("s1", "shardset_keys")
        .sendsNothingContaining("s2", "shardset_keys")
        .sendsNothingContaining("s3", "shardset_keys")
        .returnsUnsharded();
    for (int category = 0; category < 40; category += 3) {
      fixture.sql(connection, "SELECT l.LOT_ID, l.UNITS, i.ITEM_ID FROM ITEMS i"
              + " JOIN LOTS l ON l.ITEM_ID = i.ITEM_ID WHERE i.CATEGORY = 'c" + category + "'")
          .returnsUnsharded();
    }
  }

  @Test void everyCategoryAndPriceRangeReturnsTheUnshardedRows() {
    for (int category = 0; category < 40; category += 3) {
      fixture.sql(connection, "SELECT s.SALE_ID, s.QTY, i.ITEM_ID FROM SALES s"
              + " JOIN ITEMS i ON s.ITEM_ID = i.ITEM_ID WHERE i.CATEGORY = 'c" + category + "'")
          .returnsUnsharded();
    }
    for (int[] range : new int[][] {{0, 0}, {-5, 0}, {399, 500}, {100, 160}, {450, 900},
        {0, 399}}) {
      fixture.sql(connection, "SELECT i.ITEM_ID, COUNT(*), SUM(s.QTY) FROM ITEMS i"
              + " JOIN SALES s ON s.ITEM_ID = i.ITEM_ID WHERE i.PRICE BETWEEN " + range[0]
              + " AND " + range[1] + " GROUP BY i.ITEM_ID")
          .returnsUnsharded();
    }
  }

  @Test void anOuterJoinFiltersOnlyTheSideItDoesNotKeep() {
    fixture.sql(connection, "SELECT i.ITEM_ID, s.SALE_ID FROM ITEMS i"
            + " LEFT JOIN SALES s ON s.ITEM_ID = i.ITEM_ID WHERE i.CATEGORY = 'c7'")
        .explainContains("bindKeys=[ITEM_ID]")
        .returnsUnsharded();
    // Every sale is kept, matched or not: the sales are not filtered.
    fixture.sql(connection, "SELECT s.SALE_ID, i.PRICE FROM SALES s LEFT JOIN"
            + " (SELECT * FROM ITEMS WHERE CATEGORY = 'c7') i ON s.ITEM_ID = i.ITEM_ID")
        .sendsNothingContaining("shardset_keys")
        .returnsUnsharded();
  }

  @Test void noKeyAsksTheLargeSideNothing() {
    fixture.sql(connection, "SELECT s.SALE_ID, i.PRICE FROM SALES s"
            + " JOIN ITEMS i ON s.ITEM_ID = i.ITEM_ID WHERE i.CATEGORY = 'none'")
        .explainContains("bindKeys=[ITEM_ID]")
        .executesOnEachShard(1)
        .returnsCount(0);
  }

  @Test void aScanThatLocksItsRowsReadsAsPlanned() throws SQLException {
    // FOR UPDATE locks every row a scan reads: a key list would leave rows unlocked.
    final String join = "SELECT s.SALE_ID, i.PRICE FROM SALES s"
        + " JOIN ITEMS i ON s.ITEM_ID = i.ITEM_ID WHERE i.CATEGORY = 'none'";
    try (Connection transactional = Connector.SHARDSET.open(fixture.model(TABLES))) {
      transactional.setAutoCommit(false);
      // Every sale read, none through a key list (MariaDB's transactions also ask each
      // shard its session id, so not every statement sent carries the clause).
      fixture.sql(transactional, join + " FOR UPDATE")
          .sendsNothingContaining("shardset_keys")
          .readsRows(SALES + 4 * transactionRowsPerShard())
          .returnsUnsharded(join);
      transactional.rollback();
    }
  }

  @Test void aWholeTableHandsNoKeys() {
    // Every item: its keys would keep every sale.
    fixture.sql(connection, "SELECT s.SALE_ID, i.PRICE FROM SALES s"
            + " JOIN ITEMS i ON s.ITEM_ID = i.ITEM_ID")
        .sendsNothingContaining("shardset_keys")
        .returnsUnsharded();
  }
}
