package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link BenchData}. */
class BenchDataTest {
  @Test void rowsAreAFunctionOfTheirNumber() {
    assertArrayEquals(new BenchData(1_000).order(17), new BenchData(1_000).order(17));
    assertArrayEquals(new BenchData(1_000).line(new BenchData(1_000).order(17), 2),
        new BenchData(1_000).line(new BenchData(1_000).order(17), 2));
  }

  @Test void ordersBelongToExistingCustomersAndLinesToTheirOrdersCustomer() {
    final BenchData data = new BenchData(1_000);
    for (long id = 1; id <= 1_000; id++) {
      final Object[] order = data.order(id);
      final long customer = (Long) order[1];
      assertTrue(customer >= 1 && customer <= 100, "customer " + customer);
      assertTrue(((BigDecimal) order[4]).compareTo(BigDecimal.ONE) >= 0, "total " + order[4]);
      assertEquals(customer, data.line(order, 1)[2]);
    }
  }
}
