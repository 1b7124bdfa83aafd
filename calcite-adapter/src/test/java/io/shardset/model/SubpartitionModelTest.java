package io.shardset.model;

import io.shardset.routing.KeyType;

import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

import static io.shardset.model.TestOperands.assertFails;
import static io.shardset.model.TestOperands.parse;
import static io.shardset.model.TestOperands.twoShards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests that a table's {@code subpartitions} are read, checked and routed as the model says. */
class SubpartitionModelTest {
  private static final String RANGES = """
      [{"name": "p2019", "to": "2020-01-01"},
       {"name": "p2020", "from": "2020-01-01", "to": "2021-01-01"},
       {"name": "p2021", "from": "2021-01-01"}]""";

  /** A consistent-hash table ORDERS with these subpartitions. */
  private static String orders(String subpartitions) {
    return twoShards(String.format(Locale.ROOT, """
        {"name": "ORDERS", "physicalName": "orders", "method": "consistent-hash",
         "shardKey": "CUST_ID", "subpartitions": %s}""", subpartitions));
  }

  private static String byDate(String ranges) {
    return orders("{\"column\": \"ORDER_DATE\", \"ranges\": " + ranges + "}");
  }

  private static final TableLayout LAYOUT = new TableLayout(List.of(
      new ColumnInfo("CUST_ID", Types.BIGINT, "BIGINT", 19, 0, false),
      new ColumnInfo("ORDER_DATE", Types.DATE, "DATE", 10, 0, false),
      new ColumnInfo("SCORE", Types.DOUBLE, "DOUBLE", 17, 0, true),
      new ColumnInfo("CREATED_AT", Types.TIMESTAMP, "TIMESTAMP", 26, 6, true)), List.of());

  private static Subpartitioning subpartitioning(String operand) {
    ShardSetModel model = parse(operand);
    return Subpartitioning.create(model, model.tables().get(0), LAYOUT);
  }

  private static void assertFailsAtConnect(String operand, String message) {
    ModelException e = assertThrows(ModelException.class, () -> subpartitioning(operand));
    assertEquals(message, e.getMessage());
  }

  @Test void readsSubpartitionsWithTheDefaultPattern() {
    TableSpec table = parse(byDate(RANGES)).tables().get(0);
    SubpartitionSpec spec = table.subpartitions();
    assertEquals("ORDER_DATE", spec.column());
    assertEquals("orders_{name}", spec.physicalName());
    assertEquals(List.of("p2019", "p2020", "p2021"), spec.names());
    assertEquals("orders_p2020", spec.physicalName(1));
    assertEquals(new SubpartitionSpec.Range("p2019", null, "2020-01-01"), spec.ranges().get(0));
    assertFalse(parse(twoShards("{\"name\": \"T\", \"method\": \"duplicated\"}"))
        .tables().get(0).isSubpartitioned());
  }

  @Test void readsAGivenPattern() {
    SubpartitionSpec spec = parse(orders("""
        {"column": "ORDER_DATE", "physicalName": "ord_{name}_t", "ranges": [{"name": "all"}]}
        """)).tables().get(0).subpartitions();
    assertEquals("ord_all_t", spec.physicalName(0));
  }

  @Test void compositeAndLookupTablesMayHaveSubpartitions() {
    String subpartitions = "\"subpartitions\": {\"column\": \"ORDER_DATE\", \"ranges\": "
        + RANGES + "}";
    ShardSetModel model = parse(twoShards(String.format(Locale.ROOT, """
        {"name": "BY_CLASS", "method": "composite", "shardKey": ["CUST_ID"],
         "partitionBy": {"column": "SCORE", "method": "range",
           "sets": [{"name": "all", "shardspace": "default"}]}, %s},
        {"name": "BY_TENANT", "method": "lookup", "shardKey": ["CUST_ID"],
         "directory": {"jdbcUrl": "jdbc:h2:mem:directory"}, %s}""",
        subpartitions, subpartitions)));
    for (TableSpec table : model.tables()) {
      assertEquals(table.name() + "_p2020", table.subpartitions().physicalName(1));
      Subpartitioning sub = Subpartitioning.create(model, table, LAYOUT);
      assertEquals(OptionalInt.of(2), sub.subpartitionOf(row(LocalDate.of(2021, 3, 1))));
    }
  }

  @Test void routesRowsToTheirSubpartition() {
    Subpartitioning sub = subpartitioning(byDate(RANGES));
    assertEquals(1, sub.column());
    assertEquals(KeyType.DATE, sub.type());
    assertEquals(OptionalInt.of(0), sub.subpartitionOf(row(LocalDate.of(2019, 12, 31))));
    assertEquals(OptionalInt.of(1), sub.subpartitionOf(row(LocalDate.of(2020, 1, 1))));
    assertEquals(OptionalInt.of(2), sub.subpartitionOf(row(LocalDate.of(2030, 1, 1))));
    assertEquals(OptionalInt.empty(), sub.subpartitionOf(row(null)));
    assertNull(Subpartitioning.create(parse(twoShards(
            "{\"name\": \"T\", \"method\": \"duplicated\"}")),
        parse(twoShards("{\"name\": \"T\", \"method\": \"duplicated\"}")).tables().get(0),
        LAYOUT));
  }

  private static Object[] row(LocalDate date) {
    return new Object[] {1L, date, null, null};
  }

  @Test void routesTimestamps() {
    Subpartitioning sub = subpartitioning(orders("""
        {"column": "CREATED_AT", "ranges": [{"name": "old", "to": "2020-01-01 12:00:00"},
         {"name": "new", "from": "2020-01-01 12:00:00"}]}"""));
    assertEquals(OptionalInt.of(0), sub.subpartitionOf(
        new Object[] {1L, null, null, LocalDateTime.of(2020, 1, 1, 11, 59, 59)}));
    assertEquals(OptionalInt.of(1), sub.subpartitionOf(
        new Object[] {1L, null, null, LocalDateTime.of(2020, 1, 1, 12, 0)}));
  }

  @Test void unknownKeyWithAHint() {
    assertFails(orders("{\"colum\": \"ORDER_DATE\", \"ranges\": " + RANGES + "}"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.colum':"
            + " unknown key; did you mean 'column'?");
    assertFails(byDate("[{\"name\": \"p\", \"form\": \"2020-01-01\"}]"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.ranges':"
            + " entry 1, key 'form': unknown key; did you mean 'from'?");
    assertFails(twoShards("""
            {"name": "ORDERS", "method": "consistent-hash", "shardKey": "CUST_ID",
             "subpartition": {}}"""),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartition':"
            + " unknown key; did you mean 'subpartitions'?");
  }

  @Test void notAnObject() {
    assertFails(orders("[]"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions':"
            + " expected an object, got a list");
  }

  @Test void missingColumn() {
    assertFails(orders("{\"ranges\": " + RANGES + "}"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.column':"
            + " a value is required");
  }

  @Test void missingOrEmptyRanges() {
    assertFails(orders("{\"column\": \"ORDER_DATE\"}"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.ranges':"
            + " a value is required");
    assertFails(byDate("[]"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.ranges':"
            + " expected entries");
  }

  @Test void missingName() {
    assertFails(byDate("[{\"to\": \"2020-01-01\"}]"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.ranges':"
            + " entry 1, key 'name': a value is required");
  }

  @Test void duplicateNames() {
    assertFails(byDate("[{\"name\": \"p\", \"to\": 5}, {\"name\": \"p\", \"from\": 5}]"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.ranges':"
            + " entry 2, key 'name': duplicate subpartition name 'p'");
    assertFails(byDate("[{\"name\": \"p\", \"to\": 5}, {\"name\": \"P\", \"from\": 5}]"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.ranges':"
            + " entry 2, key 'name': subpartition names 'p' and 'P' differ only in case");
  }

  @Test void patternWithoutName() {
    assertFails(orders(String.format(Locale.ROOT, """
            {"column": "ORDER_DATE", "physicalName": "orders_all", "ranges": %s}""", RANGES)),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
            + " field 'subpartitions.physicalName': pattern 'orders_all' does not contain"
            + " {name}, so the subpartitions would share one table");
  }

  @Test void duplicatedTable() {
    assertFails(twoShards("""
            {"name": "C", "method": "duplicated",
             "subpartitions": {"column": "X", "ranges": [{"name": "all"}]}}"""),
        "Invalid ShardSet model: schema 'SALES', table 'C', field 'subpartitions':"
            + " a duplicated table has no subpartitions: each shard holds all its rows in one"
            + " table");
  }

  @Test void columnThatDoesNotExist() {
    assertFailsAtConnect(orders("{\"column\": \"SHIP_DATE\", \"ranges\": " + RANGES + "}"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.column':"
            + " column 'SHIP_DATE' does not exist; columns are CUST_ID, ORDER_DATE, SCORE,"
            + " CREATED_AT");
  }

  @Test void columnOfAnUnsupportedType() {
    assertFailsAtConnect(orders("{\"column\": \"SCORE\", \"ranges\": [{\"name\": \"all\"}]}"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.column':"
            + " column 'SCORE' has type DOUBLE, which cannot subpartition a table; supported:"
            + " integer and decimal types, CHAR, VARCHAR, DATE, TIMESTAMP, BOOLEAN");
  }

  /** Subpartitioning by the shard key column itself is allowed: each shard's part splits. */
  @Test void columnMayBeTheShardKey() {
    Subpartitioning sub = subpartitioning(orders("""
        {"column": "CUST_ID", "ranges": [{"name": "low", "to": 100}, {"name": "high",
         "from": 100}]}"""));
    assertEquals(OptionalInt.of(1), sub.subpartitionOf(new Object[] {100L, null, null, null}));
  }

  @Test void boundOfTheWrongType() {
    assertFailsAtConnect(byDate("[{\"name\": \"p\", \"to\": 2020}, {\"name\": \"q\","
            + " \"from\": 2020}]"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.ranges':"
            + " entry 1, key 'to': expected a date string such as '2020-01-01' for key column"
            + " 'ORDER_DATE' of type DATE, got a number");
  }

  @Test void overlappingRanges() {
    assertFailsAtConnect(byDate("""
            [{"name": "p2019", "to": "2020-01-01"},
             {"name": "p2020", "from": "2019-06-01"}]"""),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.ranges':"
            + " entry 1 (-∞, 2020-01-01) on 'p2019' and entry 2 [2019-06-01, +∞) on 'p2020'"
            + " overlap");
  }

  @Test void gapBetweenRanges() {
    assertFailsAtConnect(byDate("""
            [{"name": "p2019", "to": "2020-01-01"},
             {"name": "p2021", "from": "2021-01-01"}]"""),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.ranges':"
            + " no range covers [2020-01-01, 2021-01-01), between entry 1 (-∞, 2020-01-01)"
            + " on 'p2019' and entry 2 [2021-01-01, +∞) on 'p2021'");
  }

  @Test void emptyRange() {
    assertFailsAtConnect(byDate("[{\"name\": \"p\", \"from\": \"2020-01-01\","
            + " \"to\": \"2020-01-01\"}]"),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'subpartitions.ranges':"
            + " entry 1: 'from' (2020-01-01) must be less than 'to' (2020-01-01)");
  }
}
