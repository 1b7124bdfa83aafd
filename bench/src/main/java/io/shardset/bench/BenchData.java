package io.shardset.bench;

import java.math.BigDecimal;
import java.sql.Date;
import java.time.LocalDate;
import java.util.List;

/**
 * The benchmark's data set, each row a pure function of its number so that every run and every
 * system sees the same rows: ORDERS and its co-located ORDER_LINES (both sharded on
 * CUSTOMER_ID) and the duplicated reference table PRODUCTS.
 */
public final class BenchData {
  /** The order statuses, the low-cardinality grouping column of the aggregate workload. */
  public static final List<String> STATUSES =
      List.of("NEW", "PAID", "SHIPPED", "DELIVERED", "RETURNED");
  /** Rows of PRODUCTS. */
  public static final int PRODUCTS = 1_000;

  /**
   * The columns of ORDERS, in the order of {@link #order}, as a CREATE TABLE lists them; the
   * write workloads' table has the same.
   */
  public static final String ORDERS_COLUMNS = "(ORDER_ID BIGINT NOT NULL,"
      + " CUSTOMER_ID BIGINT NOT NULL, ORDER_DATE DATE NOT NULL, STATUS VARCHAR(12) NOT NULL,"
      + " TOTAL DECIMAL(12, 2) NOT NULL)";

  /** The tables, without keys or indexes, the same on every shard and on the unsharded database. */
  public static final List<String> TABLES = List.of(
      "CREATE TABLE PRODUCTS (PRODUCT_ID INTEGER NOT NULL, NAME VARCHAR(40) NOT NULL,"
          + " CATEGORY VARCHAR(12) NOT NULL, PRICE DECIMAL(10, 2) NOT NULL)",
      "CREATE TABLE ORDERS " + ORDERS_COLUMNS,
      "CREATE TABLE ORDER_LINES (ORDER_ID BIGINT NOT NULL, LINE_NO INTEGER NOT NULL,"
          + " CUSTOMER_ID BIGINT NOT NULL, PRODUCT_ID INTEGER NOT NULL, QTY INTEGER NOT NULL,"
          + " AMOUNT DECIMAL(12, 2) NOT NULL)");
  /** The tables' keys and indexes; a bulk load creates them after the rows are in. */
  public static final List<String> KEYS = List.of(
      "ALTER TABLE PRODUCTS ADD PRIMARY KEY (PRODUCT_ID)",
      "ALTER TABLE ORDERS ADD PRIMARY KEY (ORDER_ID)",
      "CREATE INDEX ORDERS_CUSTOMER ON ORDERS (CUSTOMER_ID)",
      "ALTER TABLE ORDER_LINES ADD PRIMARY KEY (ORDER_ID, LINE_NO)",
      "CREATE INDEX ORDER_LINES_CUSTOMER ON ORDER_LINES (CUSTOMER_ID)");
  /** The tables with their keys and indexes. */
  public static final List<String> DDL =
      java.util.stream.Stream.concat(TABLES.stream(), KEYS.stream()).toList();

  private static final LocalDate FIRST_DAY = LocalDate.of(2020, 1, 1);

  private final long orders;

  /** The data set with {@code orders} orders and one customer for every ten orders. */
  public BenchData(long orders) {
    if (orders < 10) {
      throw new IllegalArgumentException("need at least 10 orders: " + orders);
    }
    this.orders = orders;
  }

  public long orders() {
    return orders;
  }

  public long customers() {
    return orders / 10;
  }

  /** The customer a workload asks for the n-th time: a fixed, evenly spread sequence. */
  public long customerKey(int n) {
    return 1 + Math.floorMod(mix(0x5eed_0000L + n), customers());
  }

  /** Order {@code id} (1-based): ORDER_ID, CUSTOMER_ID, ORDER_DATE, STATUS, TOTAL. */
  public Object[] order(long id) {
    final long h = mix(id);
    return new Object[] {id, 1 + Math.floorMod(h, customers()),
        Date.valueOf(FIRST_DAY.plusDays(Math.floorMod(h >>> 20, 1_461))),
        STATUSES.get((int) Math.floorMod(h >>> 40, STATUSES.size())),
        BigDecimal.valueOf(Math.floorMod(h >>> 8, 100_000) + 100, 2)};
  }

  /** How many lines order {@code id} has: one to three. */
  public int linesOf(long id) {
    return 1 + (int) Math.floorMod(mix(~id), 3);
  }

  /** Line {@code line} of an order: ORDER_ID, LINE_NO, CUSTOMER_ID, PRODUCT_ID, QTY, AMOUNT. */
  public Object[] line(Object[] order, int line) {
    final long id = (Long) order[0];
    final long h = mix(id * 7 + line);
    return new Object[] {id, line, order[1], 1 + (int) Math.floorMod(h, PRODUCTS),
        1 + (int) Math.floorMod(h >>> 16, 9),
        BigDecimal.valueOf(Math.floorMod(h >>> 32, 50_000), 2)};
  }

  /** Product {@code id} (1-based): PRODUCT_ID, NAME, CATEGORY, PRICE. */
  public static Object[] product(int id) {
    final long h = mix(-id);
    return new Object[] {id, "product " + id, "C" + Math.floorMod(h, 20),
        BigDecimal.valueOf(Math.floorMod(h >>> 16, 100_000) + 100, 2)};
  }

  /** SplitMix64's finalizer: a fixed, well-spread function of a number. */
  static long mix(long x) {
    long z = x + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
