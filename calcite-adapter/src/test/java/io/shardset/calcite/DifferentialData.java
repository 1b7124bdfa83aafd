package io.shardset.calcite;

import io.shardset.testing.ShardFixture;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Small tables, one per way of sharding, whose columns have few distinct values, so that
 * generated conditions often match rows: the data of {@link ParameterDifferentialTest}.
 */
final class DifferentialData {
  /** A column that generated conditions compare, and the values they compare it with. */
  record Column(String name, String sqlType, int jdbcType, List<Object> pool) {
    boolean isText() {
      return jdbcType == Types.VARCHAR;
    }
  }

  /** A table: its shard key columns and its other columns. */
  record Table(String name, List<Column> keys, List<Column> columns) {
    String selected() {
      final List<String> names = new ArrayList<>();
      keys.forEach(c -> names.add(c.name()));
      columns.forEach(c -> names.add(c.name()));
      return String.join(", ", names);
    }
  }

  static final String[] DDL = {
      "CREATE TABLE HT (K BIGINT NOT NULL, C INTEGER, D VARCHAR(8))",
      "CREATE TABLE H2K (A INTEGER NOT NULL, B VARCHAR(8) NOT NULL, C INTEGER, D VARCHAR(8))",
      "CREATE TABLE RG (K INTEGER NOT NULL, C INTEGER, D VARCHAR(8))",
      "CREATE TABLE LT (R VARCHAR(8), C INTEGER, D VARCHAR(8))"};

  static final String TABLES = "\"tables\": [\n"
      + "  {\"name\": \"HT\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]},\n"
      + "  {\"name\": \"H2K\", \"method\": \"consistent-hash\", \"shardKey\": [\"A\", \"B\"]},\n"
      + "  {\"name\": \"RG\", \"method\": \"range\", \"shardKey\": [\"K\"],\n"
      + "   \"ranges\": [{\"shard\": \"s0\", \"to\": 100},\n"
      + "              {\"shard\": \"s1\", \"from\": 100, \"to\": 200},\n"
      + "              {\"shard\": \"s2\", \"from\": 200, \"to\": 300},\n"
      + "              {\"shard\": \"s3\", \"from\": 300}]},\n"
      + "  {\"name\": \"LT\", \"method\": \"list\", \"shardKey\": [\"R\"],\n"
      + "   \"lists\": [{\"shard\": \"s0\", \"values\": [\"a\", \"b\"]},\n"
      + "             {\"shard\": \"s1\", \"values\": [\"c\"]},\n"
      + "             {\"shard\": \"s2\", \"values\": [\"d\"]},\n"
      + "             {\"shard\": \"s3\", \"default\": true}]}]";

  private static final long BIG = 1_000_000_000_000_000_000L;

  private static final Column C = new Column("C", "INTEGER", Types.INTEGER,
      List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11));
  private static final Column D = new Column("D", "VARCHAR(8)", Types.VARCHAR,
      List.of("a", "b", "c", "x"));

  static final List<Table> TABLE_LIST = List.of(
      new Table("HT", List.of(new Column("K", "BIGINT", Types.BIGINT, longs())),
          List.of(C, D)),
      new Table("H2K", List.of(new Column("A", "INTEGER", Types.INTEGER, ints(0, 12)),
          new Column("B", "VARCHAR(8)", Types.VARCHAR, List.of("p", "q", "r", "z"))),
          List.of(C, D)),
      new Table("RG", List.of(new Column("K", "INTEGER", Types.INTEGER,
          List.of(-1, 0, 1, 42, 98, 99, 100, 101, 150, 199, 200, 201, 299, 300, 301, 399, 400,
              1000))), List.of(C, D)),
      new Table("LT", List.of(new Column("R", "VARCHAR(8)", Types.VARCHAR,
          List.of("a", "b", "c", "d", "e", "f"))), List.of(C, D)));

  private DifferentialData() {
  }

  private static List<Object> longs() {
    final List<Object> values = new ArrayList<>();
    for (long k = 1; k <= 30; k++) {
      values.add(k);
    }
    values.add(BIG);
    values.add(BIG + 1);
    values.add(-7L);
    return values;
  }

  private static List<Object> ints(int from, int to) {
    final List<Object> values = new ArrayList<>();
    for (int i = from; i <= to; i++) {
      values.add(i);
    }
    return values;
  }

  /** Loads the tables through ShardSet and into the reference. */
  static void load(ShardFixture fixture, Connection connection) throws SQLException {
    final SplittableRandom r = new SplittableRandom(7);
    final List<Object[]> hashed = new ArrayList<>();
    for (long k = 1; k <= 28; k++) {
      for (int n = 0; n < 2; n++) {
        hashed.add(new Object[] {k, c(r), d(r)});
      }
    }
    hashed.add(new Object[] {BIG, c(r), d(r)});
    fixture.load(connection, "HT", hashed);
    final List<Object[]> twoColumns = new ArrayList<>();
    for (int a = 0; a <= 10; a++) {
      for (String b : new String[] {"p", "q", "r"}) {
        twoColumns.add(new Object[] {a, b, c(r), d(r)});
      }
    }
    fixture.load(connection, "H2K", twoColumns);
    final List<Object[]> ranged = new ArrayList<>();
    for (int k = 0; k < 400; k += 1 + r.nextInt(4)) {
      ranged.add(new Object[] {k, c(r), d(r)});
    }
    for (int k : new int[] {99, 100, 199, 200, 299, 300}) {
      ranged.add(new Object[] {k, c(r), d(r)});
    }
    fixture.load(connection, "RG", ranged);
    final List<Object[]> listed = new ArrayList<>();
    for (String region : new String[] {"a", "b", "c", "d", "e", null}) {
      for (int n = 0; n < 4; n++) {
        listed.add(new Object[] {region, c(r), d(r)});
      }
    }
    fixture.load(connection, "LT", listed);
  }

  private static Integer c(SplittableRandom r) {
    return r.nextInt(6) == 0 ? null : r.nextInt(10);
  }

  private static String d(SplittableRandom r) {
    return r.nextInt(5) == 0 ? null : "abc".substring(r.nextInt(3)).substring(0, 1);
  }
}
