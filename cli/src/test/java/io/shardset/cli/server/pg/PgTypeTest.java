package io.shardset.cli.server.pg;

import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Columns described as PostgreSQL describes them: a table of every common type, its columns'
 * JDBC metadata (pgJDBC's) mapped to OID, length and modifier, against PostgreSQL's own
 * catalog of the same columns.
 */
class PgTypeTest {
  @Test void describesColumnsAsPostgresqlsCatalog() throws SQLException {
    PostgresServer.require();
    final List<String> expected = new ArrayList<>();
    final List<String> actual = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(PostgresServer.url("postgres"), "postgres",
        ""); Statement s = c.createStatement()) {
      s.execute("CREATE TEMPORARY TABLE described (b boolean, s smallint, i integer, l bigint,"
          + " r real, d double precision, n numeric(12,3), n0 numeric(7), nu numeric,"
          + " c char(5), v varchar(20), t text, da date, ti time, ts timestamp,"
          + " tz timestamptz, by bytea, u uuid)");
      try (ResultSet rs = s.executeQuery("SELECT a.attname, a.atttypid, t.typlen, a.atttypmod"
          + " FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid"
          + " WHERE a.attrelid = 'described'::regclass AND a.attnum > 0 ORDER BY a.attnum")) {
        while (rs.next()) {
          expected.add(rs.getString(1) + " " + rs.getInt(2) + " " + rs.getInt(3) + " "
              + rs.getInt(4));
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT * FROM described")) {
        final ResultSetMetaData meta = rs.getMetaData();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          final PgType type = PgType.of(meta.getColumnType(i), meta.getColumnTypeName(i),
              meta.getPrecision(i), meta.getScale(i));
          actual.add(meta.getColumnName(i) + " " + type.oid() + " " + type.length() + " "
              + type.modifier());
        }
      }
    }
    assertEquals(18, expected.size(), expected.toString());
    assertEquals(expected, actual);
  }

  @Test void typesWithoutAPostgresqlMatchAreText() {
    assertEquals(PgType.TEXT, PgType.of(Types.ARRAY, "INTEGER ARRAY", 0, 0));
    assertEquals(PgType.TEXT, PgType.of(Types.VARCHAR, "VARCHAR", -1, 0));
    assertEquals(PgType.TEXT, PgType.of(Types.VARCHAR, "VARCHAR", Integer.MAX_VALUE, 0));
    assertEquals(new PgType(1043, -1, 14), PgType.of(Types.VARCHAR, "VARCHAR", 10, 0));
  }
}
