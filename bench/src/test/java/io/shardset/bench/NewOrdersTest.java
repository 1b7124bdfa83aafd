package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link NewOrders}. */
class NewOrdersTest {
  private static final BenchData DATA = new BenchData(10_000);

  @Test void numbersStartAboveTheGeneratedOrdersAndNeverRepeat() {
    final NewOrders orders = new NewOrders(DATA, 4, customer -> (int) (customer % 4));
    assertEquals(10_001L, orders.peek());
    final Set<Long> seen = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      final Object[] order = i % 2 == 0 ? orders.next() : orders.nextOn(i % 4);
      assertEquals(10_001L + i, order[0]);
      assertTrue(seen.add((Long) order[0]), "ORDER_ID " + order[0] + " twice");
    }
    assertEquals(11_001L, orders.peek());
  }

  @Test void aNewOrderIsTheGeneratedOrderOfItsNumber() {
    final NewOrders orders = new NewOrders(DATA, 4, customer -> (int) (customer % 4));
    assertArrayEquals(DATA.order(10_001), orders.next());
  }

  @Test void anOrderOnAShardHasACustomerOfThatShardAndOtherwiseTheGeneratedValues() {
    final NewOrders orders = new NewOrders(DATA, 4, customer -> (int) (customer % 4));
    final Set<Object> customers = new HashSet<>();
    for (int i = 0; i < 400; i++) {
      final int shard = i % 4;
      final Object[] order = orders.nextOn(shard);
      assertEquals(shard, (int) ((Long) order[1] % 4), "CUSTOMER_ID " + order[1]);
      final Object[] generated = DATA.order((Long) order[0]);
      generated[1] = order[1];
      assertArrayEquals(generated, order);
      customers.add(order[1]);
    }
    // Spread over many customers of each shard, not one row after another for one customer.
    assertTrue(customers.size() > 100, customers.size() + " customers");
  }

  @Test void aShardWithoutCustomersIsAnError() {
    final IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> new NewOrders(DATA, 4, customer -> (int) (customer % 3)));
    assertEquals("no customer of the 1000 has its rows on shard s3", e.getMessage());
  }
}
