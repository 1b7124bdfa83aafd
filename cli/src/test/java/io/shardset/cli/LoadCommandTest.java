package io.shardset.cli;

import io.shardset.calcite.ShardTable;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs {@code shardset load} on in-memory H2 shards and checks what each shard holds. */
class LoadCommandTest {
  private static final String ORDERS_DDL = "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY,"
      + " CUSTOMER_ID BIGINT NOT NULL, ORDER_DATE DATE NOT NULL, PAID_AT TIMESTAMP,"
      + " TOTAL DECIMAL(12, 2) NOT NULL, NOTE VARCHAR(20), PAID BOOLEAN)";
  private static final String ORDERS_MODEL = "\"chunks\": 60, \"tables\": [{\"name\": \"ORDERS\","
      + " \"method\": \"consistent-hash\", \"shardKey\": [\"CUSTOMER_ID\"]}]";
  private static final String HEADER = "ID,CUSTOMER_ID,ORDER_DATE,PAID_AT,TOTAL,NOTE,PAID";

  @TempDir Path folder;
  private H2Shards shards;
  private String out = "";
  private String err = "";

  @AfterEach void closeShards() throws SQLException {
    if (shards != null) {
      shards.close();
    }
  }

  private int load(String... args) {
    final List<String> all = new ArrayList<>(List.of("load", "--model",
        shards.modelFile().toString()));
    all.addAll(List.of(args));
    final CliRun run = CliRun.of(all.toArray(new String[0]));
    out = run.out();
    err = run.err();
    return run.code();
  }

  private Path file(String name, List<String> lines) throws IOException {
    final Path path = folder.resolve(name);
    Files.write(path, lines, StandardCharsets.UTF_8);
    return path;
  }

  /** Order {@code i} as a CSV line: NULLs, quoted empty text, both timestamp spellings. */
  private static String orderCsv(int i) {
    final String at = i % 10 == 0 ? "" : i % 2 == 0 ? "2024-03-01 10:00:0" + i % 10
        : "2024-03-01T10:00:0" + i % 10 + ".5";
    final String note = i % 5 == 0 ? "" : i % 5 == 1 ? "\"\"" : "\"note, " + i + "\"";
    return i + "," + i % 37 + "," + day(i) + "," + at + "," + total(i) + "," + note + ","
        + (i % 2 == 0);
  }

  private static String day(int i) {
    return java.time.LocalDate.of(2024, 1, 1).plusDays(i % 300).toString();
  }

  private static String total(int i) {
    return (i * 7) % 1000 + ".25";
  }

  /** Order {@code i} as the shard returns it. */
  private static String orderRow(int i) {
    final String at = i % 10 == 0 ? "null" : i % 2 == 0 ? "2024-03-01 10:00:0" + i % 10 + ".0"
        : "2024-03-01 10:00:0" + i % 10 + ".5";
    final String note = i % 5 == 0 ? "null" : i % 5 == 1 ? "" : "note, " + i;
    return i + "|" + i % 37 + "|" + day(i) + "|" + at + "|" + total(i) + "|" + note + "|"
        + (i % 2 == 0);
  }

  private Path orders(String name, int from, int to) throws IOException {
    final List<String> lines = new ArrayList<>(List.of(HEADER));
    IntStream.rangeClosed(from, to).forEach(i -> lines.add(orderCsv(i)));
    return file(name, lines);
  }

  /** The orders among {@code ids} that the table's router places on each shard. */
  private List<List<String>> expectedOrders(List<Integer> ids) throws SQLException {
    final ShardTable table = shards.table("ORDERS");
    final List<List<String>> expected = new ArrayList<>();
    for (int s = 0; s < shards.count(); s++) {
      expected.add(new ArrayList<>());
    }
    for (int i : ids) {
      final int shard = table.router().shardOf(List.of((Object) (long) (i % 37))).getAsInt();
      expected.get(shard).add(orderRow(i));
    }
    return expected;
  }

  private List<List<String>> actualOrders() throws SQLException {
    final List<List<String>> actual = new ArrayList<>();
    for (int s = 0; s < shards.count(); s++) {
      actual.add(shards.rows(s, "SELECT * FROM ORDERS ORDER BY ID"));
    }
    return actual;
  }

  private static List<Integer> ids(int from, int to) {
    return IntStream.rangeClosed(from, to).boxed().toList();
  }

  private String perShard(List<List<String>> rows) {
    return IntStream.range(0, rows.size()).mapToObj(s -> " s" + s + "=" + rows.get(s).size())
        .collect(Collectors.joining("", "  rows per shard:", ""));
  }

  @Test void loadsEveryRowOnTheShardItsKeyRoutesTo() throws Exception {
    shards = H2Shards.create(folder, 3, ORDERS_MODEL, ORDERS_DDL);
    final Path csv = orders("orders.csv", 1, 500);
    assertEquals(0, load("--table", "ORDERS", "--batch-size", "64", csv.toString()), err);
    final List<List<String>> expected = expectedOrders(ids(1, 500));
    assertEquals(expected, actualOrders());
    final List<String> summary = List.of(out.split("\n"));
    assertTrue(summary.get(0).startsWith("Loaded 500 rows into S.ORDERS in "), out);
    assertEquals(List.of(perShard(expected), "  bad rows: 0"), summary.subList(1, 3));
    // Every shard holds some: the placement test is not vacuous.
    expected.forEach(rows -> assertTrue(rows.size() > 100, expected::toString));
  }

  @Test void aBadRowStopsTheLoadAfterTheRowsBeforeIt() throws Exception {
    shards = H2Shards.create(folder, 3, ORDERS_MODEL, ORDERS_DDL);
    final List<String> lines = new ArrayList<>(List.of(HEADER));
    IntStream.rangeClosed(1, 300).forEach(i -> lines.add(i == 151
        ? "151,3,2024-01-01,,\"12,5\",,true" : orderCsv(i)));
    final Path csv = file("orders.csv", lines);
    assertEquals(1, load("--table", "ORDERS", "--batch-size", "50", csv.toString()));
    final List<String> summary = List.of(out.split("\n"));
    assertTrue(summary.get(0).startsWith("Stopped after 150 rows into S.ORDERS in "), out);
    assertEquals("  bad row: " + csv + ":152: column TOTAL: '12,5' is not a DECIMAL(12, 2)",
        summary.get(2));
    // Rows 1..150 are all committed, row 151 and what follows are nowhere.
    assertEquals(expectedOrders(ids(1, 150)), actualOrders());
  }

  @Test void skipBadCountsAndListsTheBadRows() throws Exception {
    shards = H2Shards.create(folder, 2, "\"tables\": [{\"name\": \"TICKETS\", \"method\": \"list\","
            + " \"shardKey\": [\"REGION\"], \"lists\": [{\"shard\": \"s0\", \"values\": [\"EU\"]},"
            + " {\"shard\": \"s1\", \"values\": [\"US\"]}]}]",
        "CREATE TABLE TICKETS (ID BIGINT PRIMARY KEY, REGION VARCHAR(8) NOT NULL,"
            + " N INTEGER NOT NULL)");
    final Path csv = file("tickets.csv", List.of("ID,REGION,N", "1,EU,10", "2,US,20",
        "3,XX,30", "4,EU", "", "5,US,abc", "6,,60", "7,\"E", "U\",70"));
    final Path more = file("more.csv", List.of("ID,REGION,N", "8,US,1,2"));
    assertEquals(0, load("--table", "TICKETS", "--skip-bad", "--list-bad", "3",
        csv.toString(), more.toString()), err);
    assertEquals(List.of("1|EU|10"), shards.rows(0, "SELECT * FROM TICKETS ORDER BY ID"));
    assertEquals(List.of("2|US|20"), shards.rows(1, "SELECT * FROM TICKETS ORDER BY ID"));
    final List<String> summary = List.of(out.split("\n"));
    assertEquals(List.of("  rows per shard: s0=1 s1=1", "  bad rows: 6 (skipped)",
        "    " + csv + ":4: no shard accepts key REGION = XX",
        "    " + csv + ":5: expected 3 fields, found 2",
        "    " + csv + ":7: column N: 'abc' is not an INTEGER",
        "    ... and 3 more bad rows"), summary.subList(1, summary.size()));
  }

  private void createTickets() throws Exception {
    shards = H2Shards.create(folder, 2, "\"tables\": [{\"name\": \"TICKETS\", \"method\": \"list\","
            + " \"shardKey\": [\"REGION\"], \"lists\": [{\"shard\": \"s0\", \"values\": [\"EU\"]},"
            + " {\"shard\": \"s1\", \"values\": [\"US\"]}]}]",
        "CREATE TABLE TICKETS (ID BIGINT PRIMARY KEY, REGION VARCHAR(8) NOT NULL,"
            + " N INTEGER NOT NULL)");
  }

  @Test void malformedQuotesAreSkippedWithTheirFileAndLine() throws Exception {
    createTickets();
    final Path csv = file("tickets.csv", List.of("ID,REGION,N", "1,EU,10", "2,\"US\"x,20",
        "3,US,30", "4,\"EU,40", "5,EU,50"));
    assertEquals(0, load("--table", "TICKETS", "--skip-bad", csv.toString()), err);
    assertEquals(List.of("1|EU|10", "5|EU|50"),
        shards.rows(0, "SELECT * FROM TICKETS ORDER BY ID"));
    assertEquals(List.of("3|US|30"), shards.rows(1, "SELECT * FROM TICKETS ORDER BY ID"));
    final List<String> summary = List.of(out.split("\n"));
    assertEquals(List.of("  rows per shard: s0=2 s1=1", "  bad rows: 2 (skipped)",
        "    " + csv + ":3: malformed CSV: text after the closing quote of field 2",
        "    " + csv + ":5: malformed CSV: the quote that opens field 2 is never closed"),
        summary.subList(1, summary.size()));
  }

  @Test void aMalformedQuoteStopsTheLoadNamingFileAndLine() throws Exception {
    createTickets();
    final Path csv = file("tickets.csv", List.of("ID,REGION,N", "1,EU,10", "2,\"US\"x,20",
        "3,US,30"));
    assertEquals(1, load("--table", "TICKETS", csv.toString()));
    final List<String> summary = List.of(out.split("\n"));
    assertTrue(summary.get(0).startsWith("Stopped after 1 rows into S.TICKETS in "), out);
    assertEquals("  bad row: " + csv + ":3: malformed CSV: text after the closing quote of"
        + " field 2", summary.get(2));
  }

  @Test void aByteOrderMarkIsNotPartOfTheFirstColumnName() throws Exception {
    createTickets();
    final Path csv = file("tickets.csv", List.of("\uFEFFID,REGION,N", "1,EU,10", "2,US,20"));
    final Path noHeader = file("more.csv", List.of("\uFEFF3,EU,30"));
    assertEquals(0, load("--table", "TICKETS", csv.toString()), err);
    assertEquals(0, load("--table", "TICKETS", "--no-header", noHeader.toString()), err);
    assertEquals(List.of("1|EU|10", "3|EU|30"),
        shards.rows(0, "SELECT * FROM TICKETS ORDER BY ID"));
    assertEquals(List.of("2|US|20"), shards.rows(1, "SELECT * FROM TICKETS ORDER BY ID"));
  }

  @Test void aMultiLineFieldIsReportedAtTheLineItStartsOn() throws Exception {
    shards = H2Shards.create(folder, 2, "\"tables\": [{\"name\": \"T\", \"method\": \"list\","
            + " \"shardKey\": [\"REGION\"], \"lists\": [{\"shard\": \"s0\", \"values\": [\"EU\"]},"
            + " {\"shard\": \"s1\", \"default\": true}]}]",
        "CREATE TABLE T (ID BIGINT PRIMARY KEY, REGION VARCHAR(8), N INTEGER NOT NULL)");
    final Path csv = file("t.csv", List.of("ID,REGION,N", "1,\"E", "U\",10", "2,,x"));
    assertEquals(1, load("--table", "T", csv.toString()));
    assertTrue(out.contains("  bad row: " + csv + ":4: column N: 'x' is not an INTEGER\n"), out);
    // A NULL key goes to the default shard; the multi-line value is kept whole.
    assertEquals(List.of("1|E\nU|10"), shards.rows(1, "SELECT * FROM T"));
  }

  @Test void aRerunReplacesRowsInsteadOfDuplicatingThem() throws Exception {
    shards = H2Shards.create(folder, 3, ORDERS_MODEL, ORDERS_DDL);
    final Path csv = orders("orders.csv", 1, 200);
    assertEquals(0, load("--table", "ORDERS", csv.toString()), err);
    assertEquals(0, load("--table", "ORDERS", csv.toString()), err);
    assertEquals(expectedOrders(ids(1, 200)), actualOrders());
    // A changed row is updated in place; new rows are added.
    final List<String> lines = new ArrayList<>(List.of(HEADER));
    IntStream.rangeClosed(1, 250).forEach(i -> lines.add(orderCsv(i)));
    lines.set(7, orderCsv(7).replace(total(7), "1.99"));
    assertEquals(0, load("--table", "ORDERS", file("again.csv", lines).toString()), err);
    final List<List<String>> expected = expectedOrders(ids(1, 250));
    expected.forEach(rows -> rows.replaceAll(r -> r.equals(orderRow(7))
        ? orderRow(7).replace(total(7), "1.99") : r));
    assertEquals(expected, actualOrders());
  }

  @Test void truncateEmptiesTheTableFirst() throws Exception {
    shards = H2Shards.create(folder, 3, ORDERS_MODEL, ORDERS_DDL);
    for (int s = 0; s < 3; s++) {
      shards.execute(s, "INSERT INTO ORDERS VALUES (" + (9000 + s)
          + ", 1, DATE '2020-01-01', NULL, 1, NULL, NULL)");
    }
    final Path csv = orders("orders.csv", 1, 100);
    assertEquals(0, load("--table", "ORDERS", "--truncate", csv.toString()), err);
    assertEquals(expectedOrders(ids(1, 100)), actualOrders());
  }

  @Test void aTableWithoutPrimaryKeyNeedsTruncateOrAppend() throws Exception {
    shards = H2Shards.create(folder, 2, "\"tables\": [{\"name\": \"EVENTS\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]",
        "CREATE TABLE EVENTS (ID BIGINT NOT NULL, V VARCHAR(10))");
    final Path csv = file("events.csv", List.of("ID,V", "1,a", "2,b", "3,c"));
    assertEquals(1, load("--table", "EVENTS", csv.toString()));
    assertEquals("load failed: table S.EVENTS has no primary key (the same on every shard), so"
        + " loading a file twice would duplicate its rows; give --truncate to empty the table first, or --append to insert"
        + " anyway\n", err);
    assertEquals(0, load("--table", "EVENTS", "--append", csv.toString()), err);
    assertEquals(0, load("--table", "EVENTS", "--append", csv.toString()), err);
    assertEquals(6, shards.rows(0, "SELECT * FROM EVENTS").size()
        + shards.rows(1, "SELECT * FROM EVENTS").size());
    assertEquals(0, load("--table", "EVENTS", "--truncate", csv.toString()), err);
    assertEquals(3, shards.rows(0, "SELECT * FROM EVENTS").size()
        + shards.rows(1, "SELECT * FROM EVENTS").size());
  }

  @Test void subpartitionedRowsGoToTheirSubpartitionTableOnTheirShard() throws Exception {
    shards = H2Shards.create(folder, 3, "\"chunks\": 60, \"tables\": [{\"name\": \"ORDERS\","
            + " \"method\": \"consistent-hash\", \"shardKey\": [\"CUSTOMER_ID\"],"
            + " \"subpartitions\": {\"column\": \"ORDER_DATE\", \"ranges\": ["
            + "{\"name\": \"q1\", \"to\": \"2024-04-01\"},"
            + " {\"name\": \"rest\", \"from\": \"2024-04-01\", \"to\": \"2025-01-01\"}]}}]",
        ORDERS_DDL.replace("ORDERS", "ORDERS_Q1"), ORDERS_DDL.replace("ORDERS", "ORDERS_REST"));
    for (int s = 0; s < 3; s++) {
      shards.execute(s, "INSERT INTO ORDERS_Q1 VALUES (" + (9000 + s)
          + ", 1, DATE '2024-01-01', NULL, 1, NULL, NULL)");
      shards.execute(s, "INSERT INTO ORDERS_REST VALUES (" + (9000 + s)
          + ", 1, DATE '2024-05-01', NULL, 1, NULL, NULL)");
    }
    final Path csv = orders("orders.csv", 1, 200);
    assertEquals(0, load("--table", "ORDERS", "--truncate", csv.toString()), err);
    assertEquals(0, load("--table", "ORDERS", csv.toString()), err); // upserts: no duplicates
    final List<List<String>> expected = expectedOrders(ids(1, 200));
    for (int s = 0; s < 3; s++) {
      final List<String> q1 = new ArrayList<>();
      final List<String> rest = new ArrayList<>();
      for (String row : expected.get(s)) {
        (row.split("\\|")[2].compareTo("2024-04-01") < 0 ? q1 : rest).add(row);
      }
      assertEquals(q1, shards.rows(s, "SELECT * FROM ORDERS_Q1 ORDER BY ID"));
      assertEquals(rest, shards.rows(s, "SELECT * FROM ORDERS_REST ORDER BY ID"));
      assertTrue(!q1.isEmpty() && !rest.isEmpty(), "shard " + s);
    }
    final Path late = file("late.csv", List.of(HEADER, orderCsv(201),
        "202,5,2025-02-01,,1.00,,true"));
    assertEquals(1, load("--table", "ORDERS", late.toString()));
    assertTrue(out.contains("  bad row: " + late + ":3: no subpartition accepts ORDER_DATE ="
        + " 2025-02-01\n"), out);
  }

  @Test void aDuplicatedTableGoesToEveryShard() throws Exception {
    shards = H2Shards.create(folder, 3, "\"tables\": [{\"name\": \"COUNTRIES\","
        + " \"method\": \"duplicated\"}]",
        "CREATE TABLE COUNTRIES (CODE CHAR(2) PRIMARY KEY, NAME VARCHAR(40) NOT NULL)");
    final Path csv = file("countries.csv", List.of("DE;Germany", "FR;\"France; la\"", "UK;"));
    assertEquals(0, load("--table", "COUNTRIES", "--no-header", "--delimiter", ";",
        "--skip-bad", csv.toString()), err);
    for (int s = 0; s < 3; s++) {
      assertEquals(List.of("DE|Germany", "FR|France; la"),
          shards.rows(s, "SELECT * FROM COUNTRIES ORDER BY CODE"));
    }
    assertTrue(out.contains("  rows per shard: s0=2 s1=2 s2=2\n  bad rows: 1 (skipped)\n    "
        + csv + ":3: column NAME: empty field (NULL) in a NOT NULL column\n"), out);
  }

  @Test void aCompositeTableLoadsIntoItsSetsShardspace() throws Exception {
    shards = H2Shards.create(folder, List.of("fast", "fast", "slow", "slow"), 4,
        "\"tables\": [{\"name\": \"ACCOUNTS\", \"method\": \"composite\","
            + " \"shardKey\": [\"CUST_ID\"], \"partitionBy\": {\"column\": \"CLASS\","
            + " \"method\": \"list\", \"sets\": ["
            + "{\"name\": \"gold\", \"values\": [\"gld\"], \"shardspace\": \"fast\"},"
            + "{\"name\": \"other\", \"default\": true, \"shardspace\": \"slow\"}]}}]",
        "CREATE TABLE ACCOUNTS (CUST_ID BIGINT NOT NULL, CLASS VARCHAR(8), NOTE VARCHAR(20))");
    final List<String> lines = new ArrayList<>(List.of("CUST_ID,CLASS,NOTE"));
    final List<List<String>> expected = new ArrayList<>();
    for (int s = 0; s < 4; s++) {
      expected.add(new ArrayList<>());
    }
    for (int id = 1; id <= 120; id++) {
      final String klass = id % 3 == 0 ? "gld" : id % 3 == 1 ? "slv" : "";
      lines.add(id + "," + klass + ",n" + id);
      // The spec's placement, computed without the routing code: 240 chunks per shardspace.
      final int inSpace = shardOfLong(id, 240, 2);
      expected.get(klass.equals("gld") ? inSpace : 2 + inSpace)
          .add(id + "|" + (klass.isEmpty() ? "null" : klass) + "|n" + id);
    }
    assertEquals(0, load("--table", "ACCOUNTS", "--append",
        file("accounts.csv", lines).toString()), err);
    for (int s = 0; s < 4; s++) {
      assertEquals(expected.get(s), shards.rows(s, "SELECT * FROM ACCOUNTS ORDER BY CUST_ID"));
      assertTrue(expected.get(s).size() > 10, expected::toString);
    }
  }
}
