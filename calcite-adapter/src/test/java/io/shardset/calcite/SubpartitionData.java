package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Tables with subpartitions over four shards, loaded through ShardSet's routing, and an
 * unsharded oracle holding each table whole.
 *
 * <p>SHIPMENTS is spread by a hash of CUSTOMER_ID and subpartitioned by SHIP_DATE into
 * {@code SHIPMENTS_p2019}, {@code _p2020} and {@code _p2021}; TICKETS is spread by ranges of
 * TICKET_ID and subpartitioned by PRIORITY into {@code tickets_low}, {@code _mid} and
 * {@code _high}; CUSTOMERS, hashed like SHIPMENTS, joins with it inside the shards.
 */
final class SubpartitionData {
  /** The subpartition tables, on every shard. */
  static final String[] SHARD_DDL = {
      shipments("SHIPMENTS_P2019"), shipments("SHIPMENTS_P2020"), shipments("SHIPMENTS_P2021"),
      tickets("TICKETS_LOW"), tickets("TICKETS_MID"), tickets("TICKETS_HIGH"),
      "CREATE TABLE CUSTOMERS (CUSTOMER_ID BIGINT PRIMARY KEY, NAME VARCHAR(40) NOT NULL,"
          + " REGION VARCHAR(8) NOT NULL)"};

  /** The logical tables, whole, in the oracle. */
  static final String[] ORACLE_DDL = {shipments("SHIPMENTS"), tickets("TICKETS")};

  static final String TABLES = "\"tables\": [\n"
      + "  {\"name\": \"SHIPMENTS\", \"method\": \"consistent-hash\","
      + " \"shardKey\": [\"CUSTOMER_ID\"],\n"
      + "   \"subpartitions\": {\"column\": \"SHIP_DATE\", \"ranges\": [\n"
      + "     {\"name\": \"p2019\", \"to\": \"2020-01-01\"},\n"
      + "     {\"name\": \"p2020\", \"from\": \"2020-01-01\", \"to\": \"2021-01-01\"},\n"
      + "     {\"name\": \"p2021\", \"from\": \"2021-01-01\"}]}},\n"
      + "  {\"name\": \"TICKETS\", \"method\": \"range\", \"shardKey\": [\"TICKET_ID\"],\n"
      + "   \"ranges\": [{\"shard\": \"s0\", \"to\": 100},\n"
      + "              {\"shard\": \"s1\", \"from\": 100, \"to\": 200},\n"
      + "              {\"shard\": \"s2\", \"from\": 200, \"to\": 300},\n"
      + "              {\"shard\": \"s3\", \"from\": 300}],\n"
      + "   \"subpartitions\": {\"column\": \"PRIORITY\", \"physicalName\": \"tickets_{name}\",\n"
      + "     \"ranges\": [{\"name\": \"low\", \"to\": 2}, {\"name\": \"mid\", \"from\": 2,"
      + " \"to\": 4},\n"
      + "                {\"name\": \"high\", \"from\": 4, \"to\": 6}]}},\n"
      + "  {\"name\": \"CUSTOMERS\", \"method\": \"consistent-hash\","
      + " \"shardKey\": [\"CUSTOMER_ID\"]}]";

  private SubpartitionData() {
  }

  private static String shipments(String name) {
    return "CREATE TABLE " + name + " (SHIPMENT_ID BIGINT PRIMARY KEY,"
        + " CUSTOMER_ID BIGINT NOT NULL, SHIP_DATE DATE NOT NULL, WEIGHT INTEGER,"
        + " CARRIER VARCHAR(10))";
  }

  private static String tickets(String name) {
    return "CREATE TABLE " + name + " (TICKET_ID INTEGER PRIMARY KEY, CUSTOMER_ID BIGINT"
        + " NOT NULL, PRIORITY INTEGER NOT NULL, OPENED DATE NOT NULL)";
  }

  /** A fixture with the subpartition tables on the shards and the whole tables in the
   * oracle. */
  static ShardFixture fixture(Backend backend) throws SQLException {
    final ShardFixture fixture = ShardFixture.create(backend, 4, SHARD_DDL);
    try (Statement s = fixture.oracle().createStatement()) {
      for (String sql : ORACLE_DDL) {
        s.execute(sql);
      }
    }
    return fixture;
  }

  /** Loads every table through ShardSet and into the oracle. */
  static void load(ShardFixture fixture, Connection connection) throws SQLException {
    final SplittableRandom r = new SplittableRandom(7);
    final List<Object[]> customers = new ArrayList<>();
    for (long id = 1; id <= 200; id++) {
      customers.add(new Object[] {id, "customer " + id, r.nextBoolean() ? "EU" : "US"});
    }
    fixture.load(connection, "CUSTOMERS", customers);
    final String[] carriers = {"DHL", "UPS", "FEDEX", null};
    final List<Object[]> shipments = new ArrayList<>();
    for (long id = 1; id <= 1500; id++) {
      shipments.add(new Object[] {id, 1 + (long) r.nextInt(200),
          LocalDate.of(2019, 1, 1).plusDays(r.nextInt(1100)),
          r.nextInt(9) == 0 ? null : r.nextInt(500), carriers[r.nextInt(carriers.length)]});
    }
    // Exactly on the subpartition boundaries.
    shipments.add(new Object[] {1501L, 42L, LocalDate.of(2019, 12, 31), 1, "DHL"});
    shipments.add(new Object[] {1502L, 42L, LocalDate.of(2020, 1, 1), 2, "UPS"});
    shipments.add(new Object[] {1503L, 42L, LocalDate.of(2021, 1, 1), 3, "DHL"});
    fixture.load(connection, "SHIPMENTS", shipments);
    final List<Object[]> tickets = new ArrayList<>();
    for (int id = 0; id < 400; id++) {
      tickets.add(new Object[] {id, 1 + (long) r.nextInt(200), r.nextInt(6),
          LocalDate.of(2021, 1, 1).plusDays(r.nextInt(365))});
    }
    fixture.load(connection, "TICKETS", tickets);
  }
}
