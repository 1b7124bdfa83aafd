package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A small sales data set over four shards with one table per sharding method, with NULLs and
 * edge values, loaded through ShardSet's routing and into an unsharded oracle.
 */
final class SalesData {
  static final String[] DDL = {
      "CREATE TABLE CUSTOMERS (CUSTOMER_ID BIGINT PRIMARY KEY, NAME VARCHAR(40) NOT NULL,"
          + " REGION VARCHAR(8) NOT NULL, SIGNUP DATE NOT NULL, CREDIT DECIMAL(10, 2))",
      "CREATE TABLE ORDERS (ORDER_ID BIGINT PRIMARY KEY, CUSTOMER_ID BIGINT NOT NULL,"
          + " ORDER_DATE DATE NOT NULL, AMOUNT DECIMAL(12, 2) NOT NULL, STATUS VARCHAR(10))",
      "CREATE TABLE EVENTS (EVENT_ID INTEGER PRIMARY KEY, EVENT_DAY DATE NOT NULL,"
          + " KIND VARCHAR(10) NOT NULL, WEIGHT INTEGER, VERIFIED BOOLEAN,"
          + " SCORE DOUBLE PRECISION)",
      "CREATE TABLE LEDGER (ENTRY_ID BIGINT PRIMARY KEY, POSTED TIMESTAMP NOT NULL,"
          + " AMOUNT DECIMAL(12, 2) NOT NULL)",
      "CREATE TABLE ACCOUNTS (ACCOUNT_ID INTEGER PRIMARY KEY, REGION VARCHAR(8),"
          + " BALANCE DECIMAL(12, 2) NOT NULL)",
      "CREATE TABLE VISITS (CUSTOMER_ID BIGINT NOT NULL, SITE VARCHAR(8) NOT NULL,"
          + " HITS INTEGER NOT NULL, PRIMARY KEY (CUSTOMER_ID, SITE))",
      "CREATE TABLE COUNTRIES (CODE CHAR(2) PRIMARY KEY, NAME VARCHAR(30) NOT NULL,"
          + " REGION VARCHAR(8) NOT NULL)"};

  /** The operand's table entries. */
  static final String TABLES = "\"tables\": [\n"
      + "  {\"name\": \"CUSTOMERS\", \"method\": \"consistent-hash\","
      + " \"shardKey\": [\"CUSTOMER_ID\"]},\n"
      + "  {\"name\": \"ORDERS\", \"method\": \"consistent-hash\","
      + " \"shardKey\": [\"CUSTOMER_ID\"]},\n"
      + "  {\"name\": \"EVENTS\", \"method\": \"range\", \"shardKey\": [\"EVENT_DAY\"],\n"
      + "   \"ranges\": [{\"shard\": \"s0\", \"to\": \"2020-01-01\"},\n"
      + "              {\"shard\": \"s1\", \"from\": \"2020-01-01\", \"to\": \"2021-01-01\"},\n"
      + "              {\"shard\": \"s2\", \"from\": \"2021-01-01\", \"to\": \"2022-01-01\"},\n"
      + "              {\"shard\": \"s3\", \"from\": \"2022-01-01\"}]},\n"
      + "  {\"name\": \"LEDGER\", \"method\": \"range\", \"shardKey\": [\"ENTRY_ID\"],\n"
      + "   \"ranges\": [{\"shard\": \"s0\", \"from\": 0, \"to\": 1000},\n"
      + "              {\"shard\": \"s1\", \"from\": 1000, \"to\": 2000},\n"
      + "              {\"shard\": \"s2\", \"from\": 2000, \"to\": 3000},\n"
      + "              {\"shard\": \"s3\", \"from\": 3000, \"to\": 4000}]},\n"
      + "  {\"name\": \"ACCOUNTS\", \"method\": \"list\", \"shardKey\": [\"REGION\"],\n"
      + "   \"lists\": [{\"shard\": \"s0\", \"values\": [\"EU\", \"UK\"]},\n"
      + "             {\"shard\": \"s1\", \"values\": [\"US\"]},\n"
      + "             {\"shard\": \"s2\", \"values\": [\"APAC\"]},\n"
      + "             {\"shard\": \"s3\", \"default\": true}]},\n"
      + "  {\"name\": \"VISITS\", \"method\": \"consistent-hash\","
      + " \"shardKey\": [\"CUSTOMER_ID\", \"SITE\"]},\n"
      + "  {\"name\": \"COUNTRIES\", \"method\": \"duplicated\"}]";

  static final String[] REGIONS = {"EU", "UK", "US", "APAC", "LATAM", "MEA"};
  static final String[] SITES = {"web", "ios", "android"};

  private SalesData() {
  }

  /** A fixture with the tables on a backend, and a model over it. */
  static ShardFixture fixture(Backend backend) throws SQLException {
    return ShardFixture.create(backend, 4, DDL);
  }

  static String model(ShardFixture fixture) {
    return fixture.model(TABLES);
  }

  /** Loads every table through ShardSet and into the oracle. */
  static void load(ShardFixture fixture, Connection connection) throws SQLException {
    final SplittableRandom r = new SplittableRandom(42);
    final List<Object[]> customers = new ArrayList<>();
    for (long id = 1; id <= 400; id++) {
      customers.add(new Object[] {id, "customer " + id, REGIONS[r.nextInt(REGIONS.length)],
          LocalDate.of(2019, 1, 1).plusDays(r.nextInt(1500)),
          r.nextInt(8) == 0 ? null : BigDecimal.valueOf(r.nextInt(1_000_000), 2)});
    }
    fixture.load(connection, "CUSTOMERS", customers);
    final List<Object[]> orders = new ArrayList<>();
    for (long id = 1; id <= 2000; id++) {
      orders.add(new Object[] {id, 1 + (long) r.nextInt(400),
          LocalDate.of(2020, 1, 1).plusDays(r.nextInt(1200)),
          BigDecimal.valueOf(r.nextInt(500_000), 2),
          r.nextInt(10) == 0 ? null : (r.nextBoolean() ? "PAID" : "SHIPPED")});
    }
    fixture.load(connection, "ORDERS", orders);
    final List<Object[]> events = new ArrayList<>();
    for (int id = 1; id <= 600; id++) {
      events.add(new Object[] {id, LocalDate.of(2018, 6, 1).plusDays(r.nextInt(1800)),
          r.nextBoolean() ? "click" : "view", r.nextInt(6) == 0 ? null : r.nextInt(100),
          verified(id), score(id)});
    }
    // Exactly on the range boundaries.
    events.add(new Object[] {601, LocalDate.of(2020, 1, 1), "click", 1, verified(601),
        score(601)});
    events.add(new Object[] {602, LocalDate.of(2019, 12, 31), "view", 2, verified(602),
        score(602)});
    events.add(new Object[] {603, LocalDate.of(2022, 1, 1), "view", 3, verified(603),
        score(603)});
    fixture.load(connection, "EVENTS", events);
    final List<Object[]> ledger = new ArrayList<>();
    for (long id = 0; id < 4000; id += 7) {
      ledger.add(new Object[] {id, LocalDateTime.of(2021, 3, 1, 0, 0).plusMinutes(id * 13),
          BigDecimal.valueOf(id * 3 - 5000, 2)});
    }
    fixture.load(connection, "LEDGER", ledger);
    final List<Object[]> accounts = new ArrayList<>();
    for (int id = 1; id <= 300; id++) {
      accounts.add(new Object[] {id, id % 25 == 0 ? null : REGIONS[r.nextInt(REGIONS.length)],
          BigDecimal.valueOf(r.nextInt(2_000_000) - 500_000, 2)});
    }
    fixture.load(connection, "ACCOUNTS", accounts);
    final List<Object[]> visits = new ArrayList<>();
    for (long id = 1; id <= 200; id++) {
      for (String site : SITES) {
        if (r.nextInt(3) != 0) {
          visits.add(new Object[] {id, site, r.nextInt(1000)});
        }
      }
    }
    fixture.load(connection, "VISITS", visits);
    fixture.load(connection, "COUNTRIES", List.of(
        new Object[] {"DE", "Germany", "EU"}, new Object[] {"GB", "United Kingdom", "UK"},
        new Object[] {"US", "United States", "US"}, new Object[] {"JP", "Japan", "APAC"},
        new Object[] {"BR", "Brazil", "LATAM"}, new Object[] {"ZA", "South Africa", "MEA"}));
  }

  /** Derived from the id rather than drawn, so that the other columns' values stay as they
   * were before these columns existed. */
  private static Boolean verified(int id) {
    return id % 3 == 0 ? null : id % 2 == 0;
  }

  /** Quarters only: sums of them are exact in binary floating point, whatever the order. */
  private static Double score(int id) {
    return id % 7 == 0 ? null : id * 0.25;
  }
}
