package io.shardset.reshard;

import io.shardset.model.ColumnInfo;

import org.junit.jupiter.api.Test;

import java.sql.Types;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Column types as DDL spells them, from what H2's, PostgreSQL's and MariaDB's metadata say. */
class ColumnTypeSqlTest {
  private static String type(String typeName, int jdbcType, int size, int digits) {
    return ColumnTypeSql.of(new ColumnInfo("C", jdbcType, typeName, size, digits, true));
  }

  @Test void h2Types() {
    assertEquals("CHARACTER VARYING(40)", type("CHARACTER VARYING", Types.VARCHAR, 40, 0));
    assertEquals("CHARACTER(3)", type("CHARACTER", Types.CHAR, 3, 0));
    assertEquals("NUMERIC(12, 2)", type("NUMERIC", Types.NUMERIC, 12, 2));
    assertEquals("TIMESTAMP(3)", type("TIMESTAMP", Types.TIMESTAMP, 23, 3));
    assertEquals("TIMESTAMP(2) WITH TIME ZONE",
        type("TIMESTAMP WITH TIME ZONE", Types.TIMESTAMP_WITH_TIMEZONE, 28, 2));
    assertEquals("DOUBLE PRECISION", type("DOUBLE PRECISION", Types.DOUBLE, 53, 0));
    assertEquals("BOOLEAN", type("BOOLEAN", Types.BOOLEAN, 1, 0));
    assertEquals("BIGINT", type("BIGINT", Types.BIGINT, 64, 0));
  }

  @Test void postgresTypes() {
    assertEquals("int8", type("int8", Types.BIGINT, 19, 0));
    assertEquals("int4", type("int4", Types.INTEGER, 10, 0));
    assertEquals("varchar(20)", type("varchar", Types.VARCHAR, 20, 0));
    assertEquals("varchar", type("varchar", Types.VARCHAR, Integer.MAX_VALUE, 0));
    assertEquals("char(3)", type("bpchar", Types.CHAR, 3, 0));
    assertEquals("numeric(12, 2)", type("numeric", Types.NUMERIC, 12, 2));
    assertEquals("numeric(1000, 0)", type("numeric", Types.NUMERIC, 1000, 0));
    assertEquals("numeric", type("numeric", Types.NUMERIC, 131089, 0));
    assertEquals("numeric", type("numeric", Types.NUMERIC, 0, 0));
    assertEquals("timestamptz(2)", type("timestamptz", Types.TIMESTAMP, 31, 2));
    assertEquals("text", type("text", Types.VARCHAR, Integer.MAX_VALUE, 0));
    assertEquals("date", type("date", Types.DATE, 13, 0));
    assertEquals("timestamp(6)", type("timestamp", Types.TIMESTAMP, 29, 6));
    assertEquals("bool", type("bool", Types.BOOLEAN, 1, 0));
    assertEquals("float8", type("float8", Types.DOUBLE, 17, 17));
  }

  @Test void mariaDbTypes() {
    assertEquals("VARCHAR(20)", type("VARCHAR", Types.VARCHAR, 20, 0));
    assertEquals("DECIMAL(12, 2)", type("DECIMAL", Types.DECIMAL, 12, 2));
    assertEquals("DATETIME(3)", type("DATETIME", Types.TIMESTAMP, 23, 3));
    assertEquals("BIGINT", type("BIGINT", Types.BIGINT, 19, 0));
  }
}
