package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Locale;

/**
 * The types the catalog lists ({@code pg_type}), with the names PostgreSQL gives them where it
 * writes a column's type out ({@code format_type}, {@code information_schema.columns}).
 */
final class PgTypeCatalog {
  /** A type: its OID, name, length and category, and its SQL name. */
  record Entry(int oid, String name, int length, String category, String sqlName) {
  }

  static final List<Entry> TYPES = List.of(
      new Entry(16, "bool", 1, "B", "boolean"),
      new Entry(17, "bytea", -1, "U", "bytea"),
      new Entry(18, "char", 1, "Z", "\"char\""),
      new Entry(19, "name", 64, "S", "name"),
      new Entry(20, "int8", 8, "N", "bigint"),
      new Entry(21, "int2", 2, "N", "smallint"),
      new Entry(23, "int4", 4, "N", "integer"),
      new Entry(25, "text", -1, "S", "text"),
      new Entry(26, "oid", 4, "N", "oid"),
      new Entry(700, "float4", 4, "N", "real"),
      new Entry(701, "float8", 8, "N", "double precision"),
      new Entry(1042, "bpchar", -1, "S", "character"),
      new Entry(1043, "varchar", -1, "S", "character varying"),
      new Entry(1082, "date", 4, "D", "date"),
      new Entry(1083, "time", 8, "D", "time without time zone"),
      new Entry(1114, "timestamp", 8, "D", "timestamp without time zone"),
      new Entry(1184, "timestamptz", 8, "D", "timestamp with time zone"),
      new Entry(1700, "numeric", -1, "N", "numeric"),
      new Entry(2950, "uuid", 16, "U", "uuid"));

  private PgTypeCatalog() {
  }

  static @Nullable Entry of(int oid) {
    for (Entry entry : TYPES) {
      if (entry.oid() == oid) {
        return entry;
      }
    }
    return null;
  }

  /** A type with its modifier as {@code format_type} writes it: {@code numeric(12,2)},
   * {@code character varying(20)}. */
  static String format(int oid, int modifier) {
    final Entry entry = of(oid);
    if (entry == null) {
      return "???";
    }
    if (modifier < 4) {
      return entry.sqlName();
    }
    switch (oid) {
    case PgBinary.NUMERIC:
      return String.format(Locale.ROOT, "numeric(%d,%d)", (modifier - 4) >> 16,
          (modifier - 4) & 0xffff);
    case PgBinary.VARCHAR:
    case PgBinary.BPCHAR:
      return entry.sqlName() + "(" + (modifier - 4) + ")";
    default:
      return entry.sqlName();
    }
  }
}
