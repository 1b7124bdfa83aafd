package io.shardset.testdata;

import io.shardset.model.ShardSetModel;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo data is the same on every run and has the documented sizes. */
class DemoDataTest {
  @Test void generationIsDeterministic() {
    final DemoData a = new DemoData(500, 2_000, 300, 300);
    final DemoData b = new DemoData(500, 2_000, 300, 300);
    for (String table : DemoData.tables()) {
      assertEquals(strings(a.rows(table)), strings(b.rows(table)), table);
    }
  }

  @Test void standardSizes() {
    final DemoData data = DemoData.standard();
    assertEquals(22, data.rows("COUNTRIES").size());
    assertEquals(20_000, data.rows("CUSTOMERS").size());
    assertEquals(200_000, data.rows("ORDERS").size());
  }

  @Test void ticketsCarryTheirCustomersRegion() {
    final DemoData data = new DemoData(500, 10, 10, 1_000);
    final List<Object[]> customers = data.rows("CUSTOMERS");
    final List<Object[]> countries = data.rows("COUNTRIES");
    for (Object[] ticket : data.rows("TICKETS")) {
      final Object[] customer = customers.get((int) (long) (Long) ticket[2] - 1);
      final Object[] country = countries.stream()
          .filter(c -> c[0].equals(customer[3])).findFirst().orElseThrow();
      assertEquals(country[2], ticket[1]);
    }
    assertTrue(data.rows("TICKETS").stream().anyMatch(t -> "APAC".equals(t[1])));
  }

  @Test void paymentsFollowTheirOrders() {
    final DemoData data = new DemoData(100, 3_000, 10, 10);
    final List<Object[]> orders = data.rows("ORDERS");
    final List<Object[]> payments = data.rows("PAYMENTS");
    assertTrue(payments.size() > 2_200 && payments.size() < 2_800, () -> "" + payments.size());
    for (Object[] payment : payments) {
      final Object[] order = orders.get((int) (long) (Long) payment[1] - 1);
      assertEquals(order[1], payment[2]);
      final LocalDate ordered = (LocalDate) order[2];
      final LocalDate paid = (LocalDate) payment[3];
      assertTrue(!paid.isBefore(ordered) && paid.isBefore(ordered.plusDays(8)));
    }
    // Every year's subpartition gets payments.
    for (int year = 2020; year <= 2025; year++) {
      final int y = year;
      assertTrue(payments.stream().anyMatch(p -> ((LocalDate) p[3]).getYear() == y), "" + y);
    }
  }

  @Test void aSubpartitionedTableIsCreatedOncePerSubpartition() throws IOException {
    final ShardSetModel model =
        DemoDatabase.parseModel(new File("../model/demo.json"), "DEMO");
    final List<String> statements = new ArrayList<>();
    for (String statement : List.of("CREATE TABLE COUNTRIES (CODE CHAR(2))",
        "CREATE INDEX X ON COUNTRIES (CODE)", "CREATE TABLE PAYMENTS (ID BIGINT)")) {
      statements.addAll(DemoDatabase.forSubpartitions(statement, model.tables()));
    }
    assertEquals(List.of("CREATE TABLE COUNTRIES (CODE CHAR(2))",
        "CREATE INDEX X ON COUNTRIES (CODE)", "CREATE TABLE PAYMENTS_y2020 (ID BIGINT)",
        "CREATE TABLE PAYMENTS_y2021 (ID BIGINT)", "CREATE TABLE PAYMENTS_y2022 (ID BIGINT)",
        "CREATE TABLE PAYMENTS_y2023 (ID BIGINT)", "CREATE TABLE PAYMENTS_y2024 (ID BIGINT)",
        "CREATE TABLE PAYMENTS_y2025 (ID BIGINT)"), statements);
    assertEquals(List.of("COUNTRIES", "PAYMENTS_y2020", "PAYMENTS_y2021", "PAYMENTS_y2022",
        "PAYMENTS_y2023", "PAYMENTS_y2024", "PAYMENTS_y2025"),
        DemoDatabase.createdTables(statements));
  }

  private static List<String> strings(List<Object[]> rows) {
    return rows.stream().map(Arrays::toString).toList();
  }

  @Test void tenantDirectoryGivesTheLargestTenantAShardOfItsOwn() {
    final List<Object[]> entries = DemoData.tenantDirectory(List.of("s0", "s1", "s2"));
    assertEquals(200, entries.size());
    assertEquals("s2", entries.get(0)[1]);
    assertTrue(entries.stream().skip(1).noneMatch(e -> "s2".equals(e[1])));
    final List<Object[]> docs = new DemoData(500, 10, 10, 10).rows("TENANT_DOCS");
    assertTrue(docs.stream().allMatch(d -> (Long) d[1] >= 1 && (Long) d[1] <= 200));
  }
}
