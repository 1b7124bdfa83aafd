package io.shardset.model;

import io.shardset.routing.HashRouter;
import io.shardset.routing.KeyType;
import io.shardset.routing.ShardRouter;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

import static io.shardset.model.TestOperands.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests that {@link RouterFactory} builds routers that route rows as the model says. */
class RouterFactoryTest {
  /** Four shards: without {@code chunks}, 480 chunks, as in the contract's worked values. */
  private static final String FOUR_SHARDS = """
      "shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"},
                 {"name": "s1", "jdbcUrl": "jdbc:h2:mem:s1"},
                 {"name": "s2", "jdbcUrl": "jdbc:h2:mem:s2"},
                 {"name": "s3", "jdbcUrl": "jdbc:h2:mem:s3"}]""";

  private static ColumnInfo column(String name, int jdbcType) {
    return new ColumnInfo(name, jdbcType, "T", 10, 0, true);
  }

  private static TableLayout layout(ColumnInfo... columns) {
    return new TableLayout(List.of(columns), List.of());
  }

  /** The router of the model's only table, over a layout of these columns. */
  private static ShardRouter router(String operand, ColumnInfo... columns) {
    ShardSetModel model = parse(operand);
    return RouterFactory.create(model, model.tables().get(0), layout(columns));
  }

  private static void assertFails(String operand, List<ColumnInfo> columns, String message) {
    ModelException e = assertThrows(ModelException.class,
        () -> router(operand, columns.toArray(new ColumnInfo[0])));
    assertEquals(message, e.getMessage());
  }

  private static String fourShards(String rest) {
    return "{" + FOUR_SHARDS + ", " + rest + "}";
  }

  private static OptionalInt shardOf(ShardRouter router, Object... key) {
    return router.shardOf(Arrays.asList(key));
  }

  @Test void consistentHashWithDefaultPlacement() {
    // Chunk c lives on shard c mod 4; the chunks are those of the contract's worked values.
    ShardRouter router = router(fourShards("""
            "tables": [{"name": "T", "method": "consistent-hash", "shardKey": ["ID", "REGION"]}]
            """),
        column("ID", Types.BIGINT), column("REGION", Types.VARCHAR));
    assertEquals(List.of(KeyType.NUMBER, KeyType.STRING), router.keyTypes());
    assertEquals(4, router.shardCount());
    assertEquals(OptionalInt.of(3), shardOf(router, 1L, "EU")); // chunk 291
    ShardRouter byId = router(fourShards("""
            "tables": [{"name": "T", "method": "consistent-hash", "shardKey": "ID"}]"""),
        column("ID", Types.INTEGER));
    assertEquals(OptionalInt.of(2), shardOf(byId, 1)); // chunk 34
    assertEquals(OptionalInt.of(1), shardOf(byId, 42)); // chunk 357
    ShardRouter byName = router(fourShards("""
            "tables": [{"name": "T", "method": "consistent-hash", "shardKey": "NAME"}]"""),
        column("NAME", Types.VARCHAR));
    assertEquals(OptionalInt.of(3), shardOf(byName, "cust-1")); // chunk 159
    ShardRouter byDay = router(fourShards("""
            "tables": [{"name": "T", "method": "consistent-hash", "shardKey": "DAY"}]"""),
        column("DAY", Types.DATE));
    assertEquals(OptionalInt.of(1), shardOf(byDay, LocalDate.of(2020, 1, 1))); // chunk 165
  }

  @Test void consistentHashWithTheModelsChunkCount() {
    // With 8 chunks, hash 304476159 (BIGINT 1) is chunk 0 and 3197703871 (INTEGER 42) chunk 5.
    ShardRouter router = router(fourShards("""
            "chunks": 8,
            "tables": [{"name": "T", "method": "consistent-hash", "shardKey": "ID"}]"""),
        column("ID", Types.BIGINT));
    assertEquals(OptionalInt.of(0), shardOf(router, 1));
    assertEquals(OptionalInt.of(1), shardOf(router, 42));
  }

  @Test void consistentHashWithAnExplicitChunkMap() {
    // Hash 304476159 (BIGINT 1) is below 10^9, hash 3197703871 (INTEGER 42) above.
    ShardRouter router = router(fourShards("""
            "chunkMap": [{"from": 0, "to": 1000000000, "shard": "s3"},
                         {"from": 1000000000, "to": 4294967296, "shard": "s0"}],
            "tables": [{"name": "T", "method": "consistent-hash", "shardKey": "ID"}]"""),
        column("ID", Types.BIGINT));
    assertEquals(OptionalInt.of(3), shardOf(router, 1));
    assertEquals(OptionalInt.of(0), shardOf(router, 42));
  }

  @Test void consistentHashNumbersShardsWithinTheShardspace() {
    ShardSetModel model = parse("""
        {"shards": [{"name": "a", "jdbcUrl": "jdbc:h2:mem:a"},
                    {"name": "g0", "jdbcUrl": "jdbc:h2:mem:g0", "shardspace": "gold"},
                    {"name": "g1", "jdbcUrl": "jdbc:h2:mem:g1", "shardspace": "gold"}],
         "chunkMap": [{"from": 0, "to": 4294967296, "shard": "a"},
                      {"from": 0, "to": 1000000000, "shard": "g1"},
                      {"from": 1000000000, "to": 4294967296, "shard": "g0"}],
         "tables": [{"name": "T", "method": "consistent-hash", "shardKey": "ID",
                     "shardspace": "gold"}]}""");
    TableSpec table = model.tables().get(0);
    ShardRouter router =
        RouterFactory.create(model, table, layout(column("ID", Types.BIGINT)));
    assertEquals(List.of("g0", "g1"), table.shards());
    assertEquals(2, router.shardCount());
    assertEquals(OptionalInt.of(1), shardOf(router, 1));
    assertEquals(OptionalInt.of(0), shardOf(router, 42));
    assertEquals(
        "ChunkMap[[0, 1000000000) on shard 1, [1000000000, 4294967296) on shard 0]",
        ((HashRouter) router).chunkMap().toString());
  }

  @Test void keyColumnOfATypeThatCannotBeAKey() {
    assertFails(fourShards("""
            "tables": [{"name": "T", "method": "consistent-hash", "shardKey": ["ID", "X"]}]"""),
        List.of(column("ID", Types.INTEGER), column("X", Types.DOUBLE)),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shardKey': column 'X' has"
            + " type DOUBLE, which cannot be a shard key; supported: integer and decimal types,"
            + " CHAR, VARCHAR, DATE, TIMESTAMP, BOOLEAN");
  }

  @Test void keyColumnMissingFromTheLayout() {
    assertFails(fourShards("""
            "tables": [{"name": "T", "method": "consistent-hash", "shardKey": "CUSTID"}]"""),
        List.of(column("CUST_ID", Types.INTEGER), column("NAME", Types.VARCHAR)),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shardKey': column 'CUSTID'"
            + " does not exist; columns are CUST_ID, NAME");
  }

  @Test void duplicatedTablesHaveNoRouter() {
    assertNull(router(fourShards("""
        "tables": [{"name": "C", "method": "duplicated"}]"""), column("CODE", Types.CHAR)));
  }

  @Test void rangesRouteByHalfOpenIntervals() {
    ShardRouter router = router(fourShards("""
            "tables": [{"name": "E", "method": "range", "shardKey": "event_day",
                        "ranges": [{"shard": "s2", "from": "2021-01-01"},
                                   {"shard": "s0", "to": "2020-01-01"},
                                   {"shard": "s1", "from": "2020-01-01", "to": "2021-01-01"}]}
                      ]"""),
        column("ID", Types.INTEGER), column("EVENT_DAY", Types.DATE));
    assertEquals(List.of(KeyType.DATE), router.keyTypes());
    assertEquals(OptionalInt.of(0), shardOf(router, LocalDate.of(2019, 12, 31)));
    assertEquals(OptionalInt.of(1), shardOf(router, "2020-01-01"));
    assertEquals(OptionalInt.of(1), shardOf(router, LocalDate.of(2020, 12, 31)));
    assertEquals(OptionalInt.of(2), shardOf(router, LocalDate.of(2021, 1, 1)));
    assertEquals(OptionalInt.empty(), shardOf(router, (Object) null));
  }

  @Test void boundedNumericRangesLeaveKeysOutside() {
    ShardRouter router = router(fourShards("""
            "tables": [{"name": "E", "method": "range", "shardKey": "AMOUNT",
                        "ranges": [{"shard": "s1", "from": 0, "to": 10.5},
                                   {"shard": "s3", "from": 10.5, "to": 100}]}]"""),
        column("AMOUNT", Types.DECIMAL));
    assertEquals(OptionalInt.of(1), shardOf(router, new BigDecimal("10.49")));
    assertEquals(OptionalInt.of(3), shardOf(router, new BigDecimal("10.50")));
    assertEquals(OptionalInt.empty(), shardOf(router, 100));
    assertEquals(OptionalInt.empty(), shardOf(router, -1));
  }

  @Test void overlappingRanges() {
    assertFails(fourShards("""
            "tables": [{"name": "E", "method": "range", "shardKey": "DAY",
                        "ranges": [{"shard": "s0", "to": "2020-01-01"},
                                   {"shard": "s1", "from": "2019-06-01"}]}]"""),
        List.of(column("DAY", Types.DATE)),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " entry 1 (-∞, 2020-01-01) on 's0' and entry 2 [2019-06-01, +∞) on 's1' overlap");
  }

  @Test void twoUnboundedRangesOverlap() {
    assertFails(fourShards("""
            "tables": [{"name": "E", "method": "range", "shardKey": "ID",
                        "ranges": [{"shard": "s0", "to": 5}, {"shard": "s1", "to": 10}]}]"""),
        List.of(column("ID", Types.INTEGER)),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " entry 1 (-∞, 5) on 's0' and entry 2 (-∞, 10) on 's1' overlap");
  }

  @Test void gappedRanges() {
    assertFails(fourShards("""
            "tables": [{"name": "E", "method": "range", "shardKey": "NAME",
                        "ranges": [{"shard": "s1", "from": "M"},
                                   {"shard": "s0", "to": "K"}]}]"""),
        List.of(column("NAME", Types.VARCHAR)),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " no range covers ['K', 'M'), between entry 2 (-∞, 'K') on 's0'"
            + " and entry 1 ['M', +∞) on 's1'");
  }

  @Test void emptyRange() {
    assertFails(fourShards("""
            "tables": [{"name": "E", "method": "range", "shardKey": "TS",
                        "ranges": [{"shard": "s0", "from": "2020-01-01 10:00:00",
                                    "to": "2020-01-01 10:00:00"}]}]"""),
        List.of(column("TS", Types.TIMESTAMP)),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges': entry 1:"
            + " 'from' (2020-01-01 10:00:00) must be less than 'to' (2020-01-01 10:00:00)");
  }

  @Test void rangeBoundThatIsNotADate() {
    assertFails(fourShards("""
            "tables": [{"name": "E", "method": "range", "shardKey": "DAY",
                        "ranges": [{"shard": "s0", "to": "2020-13-01"}]}]"""),
        List.of(column("DAY", Types.DATE)),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " entry 1, key 'to': value '2020-13-01' is not a valid DATE for key column"
            + " 'DAY'");
  }

  @Test void rangeBoundOfTheWrongJsonType() {
    assertFails(fourShards("""
            "tables": [{"name": "E", "method": "range", "shardKey": "DAY",
                        "ranges": [{"shard": "s0", "from": 18262}]}]"""),
        List.of(column("DAY", Types.DATE)),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " entry 1, key 'from': expected a date string such as '2020-01-01' for key"
            + " column 'DAY' of type DATE, got a number");
  }

  @Test void fractionalBoundOfAnIntegerKey() {
    assertFails(fourShards("""
            "tables": [{"name": "E", "method": "range", "shardKey": "ID",
                        "ranges": [{"shard": "s0", "to": 10}, {"shard": "s1", "from": 10.5}]}]
            """),
        List.of(column("ID", Types.INTEGER)),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " entry 2, key 'from': value 10.5 is not a valid INTEGER for key column 'ID'");
  }

  @Test void listsRouteListedValuesAndTheRestToTheDefault() {
    ShardRouter router = router(fourShards("""
            "tables": [{"name": "A", "method": "list", "shardKey": "REGION",
                        "lists": [{"shard": "s0", "values": ["EU", "UK"]},
                                  {"shard": "s2", "values": ["US"]},
                                  {"shard": "s3", "default": true}]}]"""),
        column("REGION", Types.CHAR));
    assertEquals(OptionalInt.of(0), shardOf(router, "UK"));
    assertEquals(OptionalInt.of(0), shardOf(router, "EU  "));
    assertEquals(OptionalInt.of(2), shardOf(router, "US"));
    assertEquals(OptionalInt.of(3), shardOf(router, "FR"));
    assertEquals(OptionalInt.of(3), shardOf(router, (Object) null));
  }

  @Test void listsWithoutDefaultRouteOtherValuesNowhere() {
    ShardRouter router = router(fourShards("""
            "tables": [{"name": "A", "method": "list", "shardKey": "CODE",
                        "lists": [{"shard": "s1", "values": [1, 2]},
                                  {"shard": "s1", "values": [3]}]}]"""),
        column("CODE", Types.SMALLINT));
    assertEquals(OptionalInt.of(1), shardOf(router, 3L));
    assertEquals(OptionalInt.empty(), shardOf(router, 4));
  }

  @Test void valueListedForTwoShards() {
    assertFails(fourShards("""
            "tables": [{"name": "A", "method": "list", "shardKey": "REGION",
                        "lists": [{"shard": "s0", "values": ["EU", "UK"]},
                                  {"shard": "s1", "values": ["US", "EU"]}]}]"""),
        List.of(column("REGION", Types.VARCHAR)),
        "Invalid ShardSet model: schema 'SALES', table 'A', field 'lists':"
            + " value 'EU' is listed for shard 's0' and shard 's1'");
  }

  @Test void valueListedTwiceForOneShard() {
    // 7 and 7.0 are one number.
    assertFails(fourShards("""
            "tables": [{"name": "A", "method": "list", "shardKey": "CODE",
                        "lists": [{"shard": "s2", "values": [7]},
                                  {"shard": "s2", "values": [7.0]}]}]"""),
        List.of(column("CODE", Types.DECIMAL)),
        "Invalid ShardSet model: schema 'SALES', table 'A', field 'lists':"
            + " value 7 is listed twice for shard 's2'");
  }

  @Test void listValueOfTheWrongJsonType() {
    assertFails(fourShards("""
            "tables": [{"name": "A", "method": "list", "shardKey": "ACTIVE",
                        "lists": [{"shard": "s0", "values": [true]},
                                  {"shard": "s1", "values": ["false"]}]}]"""),
        List.of(column("ACTIVE", Types.BOOLEAN)),
        "Invalid ShardSet model: schema 'SALES', table 'A', field 'lists':"
            + " entry 2, key 'values': expected true or false for key column 'ACTIVE' of type"
            + " BOOLEAN, got a string");
  }
}
