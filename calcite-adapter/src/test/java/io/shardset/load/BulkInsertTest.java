package io.shardset.load;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.execution.ShardException;
import io.shardset.testing.Backend;
import io.shardset.testing.ExpectedPlacement;
import io.shardset.testing.ShardFixture;
import io.shardset.topology.ShardedTable;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bulk writer on every backend: PostgreSQL shards take rows by {@code COPY}, the others by
 * multi-row statements, four shards at once. Generated rows with edge values (every column
 * NULL in turn, CSV's special characters, extreme numbers, fractional timestamps) are loaded
 * through ShardSet and into an unsharded oracle, and must read back equal; each shard holds
 * exactly the keys the spec's placement gives it.
 */
class BulkInsertTest {
  private static final String DDL = "CREATE TABLE ITEMS (ID BIGINT PRIMARY KEY,"
      + " NAME VARCHAR(60), PRICE DECIMAL(14, 2), AT TIMESTAMP(6), ON_DAY DATE, FLAG BOOLEAN,"
      + " SCORE DOUBLE PRECISION)";
  private static final String TABLES = "\"chunks\": 120, \"tables\": [{\"name\": \"ITEMS\","
      + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]";
  private static final String[] NAMES = {"", " ", "\"", "\"\"", "a,b", "line\nbreak",
      "cr\r\nlf", "back\\slash", "\\N", "NULL", "\\.", "'single'", "tab\there", " padded ",
      "\u00fcn\u00efc\u00f8d\u00e9 \u2713", "x"};
  private static final int ROWS = 2_345;

  @ParameterizedTest @EnumSource(Backend.class)
  void loadedRowsEqualTheOracleAndSitWhereTheirKeysRoute(Backend backend) throws Exception {
    try (ShardFixture fixture = ShardFixture.create(backend, 4, DDL);
         Connection connection = ShardFixture.connect(fixture.model(TABLES))) {
      final List<Object[]> rows = rows(new SplittableRandom(7), 0, ROWS);
      final ShardedTable table = ShardFixture.schema(connection).table("ITEMS").sharded();
      ShardFixture.insert(fixture.oracle(), "ITEMS", rows);
      try (ShardedInserter inserter = ShardedInserter.open(table, 100)) {
        rows.forEach(inserter::insert);
        inserter.close();
        assertEquals(ROWS, Arrays.stream(inserter.rowsPerShard()).sum());
      }
      fixture.sql(connection, "SELECT * FROM ITEMS ORDER BY ID").returnsUnshardedInOrder();
      assertPlacement(fixture, rows);
    }
  }

  @ParameterizedTest @EnumSource(Backend.class)
  void upsertsReplaceRowsByKeyTheLastOfABatchWinning(Backend backend) throws Exception {
    try (ShardFixture fixture = ShardFixture.create(backend, 4, DDL);
         Connection connection = ShardFixture.connect(fixture.model(TABLES))) {
      final ShardedTable table = ShardFixture.schema(connection).table("ITEMS").sharded();
      final SplittableRandom random = new SplittableRandom(11);
      final List<Object[]> first = rows(random, 0, 600);
      // Half the keys again with other values, some twice in one batch, and new keys.
      final List<Object[]> again = new ArrayList<>(rows(random, 300, 900));
      again.addAll(rows(random, 350, 400));
      try (ShardedInserter inserter = ShardedInserter.upserting(table, 1_000, List.of(0))) {
        first.forEach(inserter::insert);
        again.forEach(inserter::insert);
      }
      final List<Object[]> expected = new ArrayList<>(first.subList(0, 300));
      expected.addAll(again.subList(0, 50));
      expected.addAll(again.subList(600, 650));
      expected.addAll(again.subList(100, 600));
      ShardFixture.insert(fixture.oracle(), "ITEMS", expected);
      fixture.sql(connection, "SELECT * FROM ITEMS ORDER BY ID").returnsUnshardedInOrder();
      assertPlacement(fixture, expected);
    }
  }

  @ParameterizedTest @EnumSource(value = Backend.class, names = {"H2", "POSTGRES", "MARIADB"})
  void aDuplicateKeyFailsNamingTheShard(Backend backend) throws Exception {
    try (ShardFixture fixture = ShardFixture.create(backend, 4, DDL);
         Connection connection = ShardFixture.connect(fixture.model(TABLES))) {
      final ShardedTable table = ShardFixture.schema(connection).table("ITEMS").sharded();
      final List<Object[]> rows = rows(new SplittableRandom(3), 0, 50);
      rows.add(rows.get(10).clone());
      final String shard = "s" + ExpectedPlacement.shardOfLong((Long) rows.get(10)[0], 120, 4);
      final ShardException e = assertThrows(ShardException.class, () -> {
        try (ShardedInserter inserter = ShardedInserter.open(table, 1_000)) {
          rows.forEach(inserter::insert);
        }
      });
      assertEquals(shard, e.shardName(), e.getMessage());
      assertTrue(e.getMessage().toLowerCase(Locale.ROOT).contains("duplicate")
          || e.getMessage().contains("PRIMARY KEY") || e.getMessage().contains("unique"),
          e.getMessage());
      // The failed shard's batch is not committed, the others' are.
      final List<Object[]> others = rows.subList(0, 50).stream()
          .filter(r -> !("s" + ExpectedPlacement.shardOfLong((Long) r[0], 120, 4))
              .equals(shard)).toList();
      ShardFixture.insert(fixture.oracle(), "ITEMS", others);
      fixture.sql(connection, "SELECT * FROM ITEMS ORDER BY ID").returnsUnshardedInOrder();
    }
  }

  /**
   * A batch refused in the background (a duplicate key in the third batch of one shard) stops
   * the load at the caller's next call or at close, naming the shard; no batch is sent after
   * it is seen, and what was committed sits where it routes, once.
   */
  @ParameterizedTest @EnumSource(value = Backend.class, names = {"H2", "POSTGRES"})
  void aBatchRefusedInTheBackgroundStopsTheLoad(Backend backend) throws Exception {
    try (ShardFixture fixture = ShardFixture.create(backend, 4, DDL);
         Connection connection = ShardFixture.connect(fixture.model(TABLES))) {
      final ShardedTable table = ShardFixture.schema(connection).table("ITEMS").sharded();
      final List<Object[]> rows = rows(new SplittableRandom(5), 0, 2_000);
      final Object[] first = rows.get(0);
      final String shard = "s" + ExpectedPlacement.shardOfLong((Long) first[0], 120, 4);
      rows.add(100, first.clone());
      final ShardException e = assertThrows(ShardException.class, () -> {
        try (ShardedInserter inserter = ShardedInserter.open(table, 10)) {
          rows.forEach(inserter::insert);
        }
      });
      assertEquals(shard, e.shardName(), e.getMessage());
      final List<Object> loaded = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        final ShardConnectionSettings settings = fixture.shards().settings("s" + i);
        try (Connection c = DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
                 settings.password());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT ID FROM ITEMS")) {
          while (rs.next()) {
            final long id = rs.getLong(1);
            assertEquals(i, ExpectedPlacement.shardOfLong(id, 120, 4), "key " + id);
            loaded.add(id);
          }
        }
      }
      assertEquals(loaded.size(), new java.util.HashSet<>(loaded).size(), "a key twice");
      assertTrue(loaded.size() < rows.size() - 1, loaded.size() + " rows loaded");
    }
  }

  /** Each shard holds exactly the keys the spec's placement gives it, read with plain JDBC. */
  private static void assertPlacement(ShardFixture fixture, List<Object[]> rows)
      throws SQLException {
    for (int shard = 0; shard < 4; shard++) {
      final List<Long> expected = new ArrayList<>();
      for (Object[] row : rows) {
        final long id = (Long) row[0];
        if (ExpectedPlacement.shardOfLong(id, 120, 4) == shard) {
          expected.add(id);
        }
      }
      expected.sort(null);
      final ShardConnectionSettings settings = fixture.shards().settings("s" + shard);
      final List<Long> actual = new ArrayList<>();
      try (Connection c = DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
               settings.password());
           Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT ID FROM ITEMS ORDER BY ID")) {
        while (rs.next()) {
          actual.add(rs.getLong(1));
        }
      }
      assertEquals(expected, actual, "keys on s" + shard);
    }
  }

  /** Rows with keys {@code from} to {@code to - 1}; each column is NULL now and then. */
  private static List<Object[]> rows(SplittableRandom random, int from, int to) {
    final List<Object[]> rows = new ArrayList<>();
    for (int i = from; i < to; i++) {
      final long id = i % 7 == 0 ? Long.MAX_VALUE - i : i % 11 == 0 ? Long.MIN_VALUE + i : i;
      rows.add(new Object[] {
          id,
          i % 13 == 1 ? null : NAMES[random.nextInt(NAMES.length)] + i,
          i % 13 == 2 ? null : i % 5 == 0 ? new BigDecimal("-999999999999.99")
              : BigDecimal.valueOf(random.nextLong(-10_000_000, 10_000_000), 2),
          i % 13 == 3 ? null : Timestamp.valueOf(LocalDateTime.of(1971, 1, 1, 0, 0)
              .plusSeconds(random.nextLong(0, 1_900_000_000L))
              .plusNanos(random.nextInt(1_000) * 1_000_000L)),
          i % 13 == 4 ? null : Date.valueOf(LocalDate.of(1900, 1, 1)
              .plusDays(random.nextInt(80_000))),
          i % 13 == 5 ? null : random.nextBoolean(),
          i % 13 == 6 ? null : i % 4 == 0 ? 1e300 * (random.nextBoolean() ? 1 : -1)
              : random.nextDouble() * 1e6});
    }
    return rows;
  }
}
