package io.shardset.model;

import io.shardset.routing.CompositeRouter;
import io.shardset.routing.ShardRouter;

import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

import static io.shardset.model.TestOperands.assertFails;
import static io.shardset.model.TestOperands.parse;
import static io.shardset.testing.ExpectedPlacement.shardOfLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests the {@code composite} method: parsing, validation and the router it builds. */
class CompositeModelTest {
  /** Shardspace fast: f0, f1; shardspace slow: w0, w1, w2; shard d0 in the default one. */
  private static final String SHARDS = """
      "shards": [{"name": "f0", "jdbcUrl": "jdbc:h2:mem:f0", "shardspace": "fast"},
                 {"name": "w0", "jdbcUrl": "jdbc:h2:mem:w0", "shardspace": "slow"},
                 {"name": "f1", "jdbcUrl": "jdbc:h2:mem:f1", "shardspace": "fast"},
                 {"name": "w1", "jdbcUrl": "jdbc:h2:mem:w1", "shardspace": "slow"},
                 {"name": "w2", "jdbcUrl": "jdbc:h2:mem:w2", "shardspace": "slow"},
                 {"name": "d0", "jdbcUrl": "jdbc:h2:mem:d0"}]""";

  private static final String BY_CLASS = """
      {"name": "ACCOUNTS", "method": "composite", "shardKey": ["CUST_ID"],
       "partitionBy": {"column": "CLASS", "method": "list",
         "sets": [{"name": "gold", "values": ["gld"], "shardspace": "fast"},
                  {"name": "silver", "values": ["slv"], "shardspace": "slow"},
                  {"name": "other", "default": true, "shardspace": "slow"}]}}""";

  private static String operand(String... tables) {
    return "{" + SHARDS + ", \"tables\": [" + String.join(", ", tables) + "]}";
  }

  private static ColumnInfo column(String name, int jdbcType) {
    return new ColumnInfo(name, jdbcType, "T", 10, 0, true);
  }

  private static final List<ColumnInfo> COLUMNS = List.of(column("CUST_ID", Types.BIGINT),
      column("CLASS", Types.VARCHAR), column("SIGNUP_DAY", Types.DATE),
      column("DATA", Types.BLOB));

  private static ShardRouter router(String operand) {
    ShardSetModel model = parse(operand);
    return RouterFactory.create(model, model.tables().get(0),
        new TableLayout(COLUMNS, List.of()));
  }

  private static void assertRouterFails(String operand, String message) {
    ModelException e = assertThrows(ModelException.class, () -> router(operand));
    assertEquals(message, e.getMessage());
  }

  @Test void parsesAListPartitionedTable() {
    TableSpec table = parse(operand(BY_CLASS)).tables().get(0);
    assertEquals(ShardingMethod.COMPOSITE, table.method());
    // Every shard of the sets' shardspaces, in model order.
    assertEquals(List.of("f0", "w0", "f1", "w1", "w2"), table.shards());
    assertEquals(List.of("CLASS", "CUST_ID"), table.routingKey());
    assertEquals(List.of("CUST_ID"), table.shardKey());
    assertEquals(new CompositeSpec("CLASS", ShardingMethod.LIST, List.of(
        PartitionSetSpec.list("gold", "fast", List.of("gld"), false),
        PartitionSetSpec.list("silver", "slow", List.of("slv"), false),
        PartitionSetSpec.list("other", "slow", List.of(), true))), table.partitionBy());
    assertEquals(List.of("fast", "slow"), table.partitionBy().shardspaces());
  }

  @Test void routesWithinEachShardspaceByItsOwnChunks() {
    ShardRouter router = router(operand(BY_CLASS));
    assertInstanceOf(CompositeRouter.class, router);
    for (long key = 1; key <= 30; key++) {
      // fast: 240 chunks over f0, f1 (table shards 0, 2); slow: 360 over w0, w1, w2 (1, 3, 4).
      int fast = List.of(0, 2).get(shardOfLong(key, 240, 2));
      int slow = List.of(1, 3, 4).get(shardOfLong(key, 360, 3));
      assertEquals(OptionalInt.of(fast), router.shardOf(List.of("gld", key)));
      assertEquals(OptionalInt.of(slow), router.shardOf(List.of("slv", key)));
      assertEquals(OptionalInt.of(slow), router.shardOf(List.of("new", key)));
    }
  }

  @Test void rangePartitionedTable() {
    ShardRouter router = router(operand("""
        {"name": "ACCOUNTS", "method": "composite", "shardKey": "CUST_ID",
         "partitionBy": {"column": "SIGNUP_DAY", "method": "range",
           "sets": [{"name": "old", "to": "2020-01-01", "shardspace": "slow"},
                    {"name": "new", "from": "2020-01-01", "shardspace": "fast"}]}}"""));
    assertEquals(OptionalInt.of(List.of(0, 2).get(shardOfLong(5, 240, 2))),
        router.shardOf(List.of("2020-01-01", 5)));
    assertEquals(OptionalInt.of(List.of(1, 3, 4).get(shardOfLong(5, 360, 3))),
        router.shardOf(List.of("2019-12-31", 5)));
  }

  @Test void unknownShardspace() {
    assertFails(operand(BY_CLASS.replace("\"slow\"}]}}", "\"slwo\"}]}}")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " entry 3, key 'shardspace': unknown shardspace 'slwo'; did you mean 'slow'?");
    assertFails(operand(BY_CLASS.replace("\"slow\"}]}}", "\"archive\"}]}}")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " entry 3, key 'shardspace': unknown shardspace 'archive'; shards are in fast,"
            + " slow, default");
  }

  @Test void emptyShardspaceName() {
    assertFails(operand(BY_CLASS.replace("\"shardspace\": \"fast\"", "\"shardspace\": \"\"")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " entry 1, key 'shardspace': must not be empty");
  }

  @Test void duplicateSetName() {
    assertFails(operand(BY_CLASS.replace("\"silver\"", "\"Gold\"")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " entry 2, key 'name': entry 1 has the set name 'Gold' already");
  }

  @Test void valueListedTwice() {
    assertRouterFails(operand(BY_CLASS.replace("[\"slv\"]", "[\"slv\", \"gld\"]")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " value 'gld' is listed for set 'gold' and set 'silver'");
  }

  @Test void secondDefault() {
    assertFails(operand(BY_CLASS.replace("\"values\": [\"slv\"]", "\"default\": true")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " entry 3, key 'default': entry 2 is the default already; a composite table has"
            + " at most one");
  }

  @Test void overlappingAndGappedRanges() {
    String ranges = """
        {"name": "ACCOUNTS", "method": "composite", "shardKey": "CUST_ID",
         "partitionBy": {"column": "SIGNUP_DAY", "method": "range",
           "sets": [{"name": "old", "to": "%s", "shardspace": "slow"},
                    {"name": "new", "from": "2020-01-01", "shardspace": "fast"}]}}""";
    assertRouterFails(operand(String.format(Locale.ROOT, ranges, "2020-02-01")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " entry 1 (-∞, 2020-02-01) on 'old' and entry 2 [2020-01-01, +∞) on 'new'"
            + " overlap");
    assertRouterFails(operand(String.format(Locale.ROOT, ranges, "2019-12-01")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " no range covers [2019-12-01, 2020-01-01), between entry 1 (-∞, 2019-12-01) on"
            + " 'old' and entry 2 [2020-01-01, +∞) on 'new'");
  }

  @Test void rangeValueOfTheWrongType() {
    assertRouterFails(operand("""
        {"name": "ACCOUNTS", "method": "composite", "shardKey": "CUST_ID",
         "partitionBy": {"column": "SIGNUP_DAY", "method": "range",
           "sets": [{"name": "old", "to": 2020, "shardspace": "slow"}]}}"""),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " entry 1, key 'to': expected a date string such as '2020-01-01' for key column"
            + " 'SIGNUP_DAY' of type DATE, got a number");
  }

  @Test void partitionColumnMissing() {
    assertRouterFails(operand(BY_CLASS.replace("\"CLASS\"", "\"KLASS\"")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.column':"
            + " column 'KLASS' does not exist; columns are CUST_ID, CLASS, SIGNUP_DAY, DATA");
  }

  @Test void partitionColumnOfAnUnsupportedType() {
    assertRouterFails(operand(BY_CLASS.replace("\"CLASS\"", "\"DATA\"")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.column':"
            + " column 'DATA' has type BLOB, which cannot be a partition column; supported:"
            + " integer and decimal types, CHAR, VARCHAR, DATE, TIMESTAMP, BOOLEAN");
  }

  @Test void partitionColumnInTheShardKey() {
    assertFails(operand(BY_CLASS.replace("[\"CUST_ID\"]", "[\"CUST_ID\", \"class\"]")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.column':"
            + " column 'CLASS' is also in the shardKey; the partition column picks the"
            + " shardspace, the shard key the shard within it");
  }

  @Test void unknownKeysWithHints() {
    assertFails(operand(BY_CLASS.replace("\"column\"", "\"colum\"")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.colum':"
            + " unknown key; did you mean 'column'?");
    assertFails(operand(BY_CLASS.replace("\"values\": [\"gld\"]", "\"value\": [\"gld\"]")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " entry 1, key 'value': unknown key; did you mean 'values'?");
    assertFails(operand(BY_CLASS.replace("\"partitionBy\"", "\"partitionby\"")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionby':"
            + " unknown key; did you mean 'partitionBy'?");
  }

  @Test void missingOrMisplacedFields() {
    assertFails(operand("""
        {"name": "ACCOUNTS", "method": "composite", "shardKey": "CUST_ID"}"""),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy':"
            + " a value is required for method 'composite'");
    assertFails(operand(BY_CLASS.replace("\"method\": \"list\"", "\"method\": \"hash\"")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.method':"
            + " unknown method 'hash'; expected list or range");
    assertFails(operand(BY_CLASS.replace("\"shardKey\"", "\"shardspace\": \"fast\","
            + " \"shardKey\"")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'shardspace':"
            + " a composite table lives on every shard of its partition sets' shardspaces,"
            + " so it has no 'shardspace' of its own");
    assertFails(operand("""
        {"name": "T", "method": "list", "shardKey": "R", "lists": [{"shard": "d0",
         "default": true}], "partitionBy": {"column": "C"}}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'partitionBy':"
            + " only composite tables have partitionBy; this table's method is 'list'");
    assertFails(operand(BY_CLASS.replace("\"values\": [\"gld\"], ", "")),
        "Invalid ShardSet model: schema 'SALES', table 'ACCOUNTS', field 'partitionBy.sets':"
            + " entry 1, key 'values': a value is required unless the set is the default");
  }

  @Test void chunkMapMustPlaceEveryShardspaceOfACompositeTable() {
    assertFails("{" + SHARDS + String.format(Locale.ROOT, """
        , "chunkMap": [{"from": 0, "to": 4294967296, "shard": "f0"}],
          "tables": [%s]}""", BY_CLASS),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap': shardspace 'slow' has no"
            + " entries, but composite table 'ACCOUNTS' uses it");
  }
}
