package io.shardset.execution;

import io.shardset.execution.RowReader.ColumnKind;

import org.apache.calcite.avatica.util.ByteString;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link RowReader}: every column kind, exact classes and values, and nulls. */
class RowReaderTest {
  /** Every kind Calcite's code reads: all but EXACT_TIMESTAMP, which only writes take. */
  private static final List<ColumnKind> ALL_KINDS = Arrays.stream(ColumnKind.values())
      .filter(kind -> kind != ColumnKind.EXACT_TIMESTAMP).toList();

  private static Connection connection;

  @BeforeAll static void createTable() throws SQLException {
    connection = DriverManager.getConnection("jdbc:h2:mem:row_reader_test;DB_CLOSE_DELAY=-1");
    try (Statement statement = connection.createStatement()) {
      statement.execute("create table t(id int primary key, c_boolean boolean,"
          + " c_tinyint tinyint, c_smallint smallint, c_integer integer, c_bigint bigint,"
          + " c_decimal decimal(12, 3), c_real real, c_double double precision,"
          + " c_string varchar(20), c_date date, c_time time(3), c_timestamp timestamp(3),"
          + " c_binary varbinary(8))");
      statement.execute("insert into t values"
          + " (1, true, -7, 1234, -2147483648, 9007199254740993, -12345.678, 1.5, -0.25,"
          + " 'héllo', date '1969-12-31', time '13:45:30.123',"
          + " timestamp '2020-01-01 10:00:00.123', X'00ff10'),"
          + " (2, false, 127, -32768, 2147483647, -1, 0.001, -3.25, 1e300, '',"
          + " date '1900-01-01', time '00:00:00', timestamp '1969-12-31 23:59:59.999', X''),"
          + " (3, null, null, null, null, null, null, null, null, null, null, null, null, null)");
    }
  }

  @AfterAll static void dropDatabase() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("SHUTDOWN");
    }
  }

  private static Object[] readRow(int id) throws SQLException {
    RowReader reader = RowReader.of(ALL_KINDS);
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("select c_boolean, c_tinyint, c_smallint,"
            + " c_integer, c_bigint, c_decimal, c_real, c_double, c_string, c_date, c_time,"
            + " c_timestamp, c_binary from t where id = " + id)) {
      assertTrue(rs.next());
      return reader.read(rs);
    }
  }

  private static List<Class<?>> classes(Object[] row) {
    return Arrays.stream(row).<Class<?>>map(Object::getClass).toList();
  }

  @Test void readsEveryKindIntoItsExactClass() throws SQLException {
    Object[] row = readRow(1);
    assertEquals(List.of(Boolean.class, Byte.class, Short.class, Integer.class, Long.class,
        BigDecimal.class, Float.class, Double.class, String.class, Integer.class, Integer.class,
        Long.class, ByteString.class), classes(row));
    assertArrayEquals(new Object[] {true, (byte) -7, (short) 1234, Integer.MIN_VALUE,
        9007199254740993L, new BigDecimal("-12345.678"), 1.5f, -0.25d, "héllo", -1,
        49_530_123, 1_577_872_800_123L, new ByteString(new byte[] {0, (byte) 0xff, 0x10})},
        row);
  }

  @Test void readsBoundaryValues() throws SQLException {
    Object[] row = readRow(2);
    // 1900-01-01 is 25567 days before 1970-01-01; the timestamp is 1 ms before the epoch.
    assertArrayEquals(new Object[] {false, (byte) 127, (short) -32768, Integer.MAX_VALUE, -1L,
        new BigDecimal("0.001"), -3.25f, 1e300d, "", -25_567, 0, -1L,
        new ByteString(new byte[0])}, row);
    assertEquals(ByteString.class, row[12].getClass());
  }

  @Test void keepsNullsNull() throws SQLException {
    assertArrayEquals(new Object[ALL_KINDS.size()], readRow(3));
  }

  @Test void readsExactTimestampsAsTheShardHoldsThem() throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("select timestamp '1969-12-31 23:59:59.999999',"
            + " cast(null as timestamp)")) {
      assertTrue(rs.next());
      assertArrayEquals(new Object[] {LocalDateTime.parse("1969-12-31T23:59:59.999999"), null},
          RowReader.of(List.of(ColumnKind.EXACT_TIMESTAMP, ColumnKind.EXACT_TIMESTAMP))
              .read(rs));
    }
  }

  @Test void columnsAreTheGivenKinds() {
    assertEquals(List.of(ColumnKind.DATE, ColumnKind.STRING),
        RowReader.of(List.of(ColumnKind.DATE, ColumnKind.STRING)).columns());
  }
}
