package io.shardset.testdata;

import org.junit.jupiter.api.Test;

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
