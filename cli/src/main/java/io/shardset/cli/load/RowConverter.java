package io.shardset.cli.load;

import io.shardset.model.ColumnInfo;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Turns the fields of one CSV record into a row of a table: every field parsed by its column's
 * type, in the table's column order, the whole row checked before it is returned.
 */
public final class RowConverter {
  private final List<ValueConverter> converters;
  /** For each table column, the index of its field in a record. */
  private final int[] fieldOfColumn;

  private RowConverter(List<ValueConverter> converters, int[] fieldOfColumn) {
    this.converters = List.copyOf(converters);
    this.fieldOfColumn = fieldOfColumn;
  }

  /** A converter for records whose fields are the table's columns, in the table's order. */
  public static RowConverter inTableOrder(List<ColumnInfo> columns) {
    final int[] fields = new int[columns.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = i;
    }
    return new RowConverter(converters(columns), fields);
  }

  /**
   * A converter for records whose fields are named by a header: every column of the table once,
   * in any order, matched by name ignoring case.
   *
   * @throws IllegalArgumentException naming unknown, repeated or missing columns
   */
  public static RowConverter forHeader(List<ColumnInfo> columns, List<String> header) {
    final int[] fields = new int[columns.size()];
    java.util.Arrays.fill(fields, -1);
    final List<String> unknown = new ArrayList<>();
    for (int f = 0; f < header.size(); f++) {
      final String name = Objects.requireNonNullElse(header.get(f), "").trim();
      final int column = indexOf(columns, name);
      if (column < 0) {
        unknown.add("'" + name + "'");
      } else if (fields[column] >= 0) {
        throw new IllegalArgumentException("header names column " + columns.get(column).name()
            + " twice");
      } else {
        fields[column] = f;
      }
    }
    final List<String> missing = new ArrayList<>();
    for (int c = 0; c < fields.length; c++) {
      if (fields[c] < 0) {
        missing.add(columns.get(c).name());
      }
    }
    if (!unknown.isEmpty() || !missing.isEmpty()) {
      final List<String> problems = new ArrayList<>();
      if (!unknown.isEmpty()) {
        problems.add("unknown columns " + String.join(", ", unknown));
      }
      if (!missing.isEmpty()) {
        problems.add("missing columns " + String.join(", ", missing));
      }
      throw new IllegalArgumentException("header does not match the table: "
          + String.join("; ", problems) + "; columns are "
          + String.join(", ", columns.stream().map(ColumnInfo::name).toList()));
    }
    return new RowConverter(converters(columns), fields);
  }

  private static int indexOf(List<ColumnInfo> columns, String name) {
    final String upper = name.toUpperCase(Locale.ROOT);
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().toUpperCase(Locale.ROOT).equals(upper)) {
        return i;
      }
    }
    return -1;
  }

  private static List<ValueConverter> converters(List<ColumnInfo> columns) {
    return columns.stream().map(ValueConverter::of).toList();
  }

  /** How many fields a record must have. */
  public int fieldCount() {
    return fieldOfColumn.length;
  }

  /**
   * The row of a record.
   *
   * @param fields the record's fields; null for an empty unquoted field
   * @throws BadValueException for a wrong number of fields or the first bad value
   */
  public Object[] convert(List<@Nullable String> fields) throws BadValueException {
    if (fields.size() != fieldOfColumn.length) {
      throw new BadValueException("expected " + fieldOfColumn.length + " fields, found "
          + fields.size());
    }
    final Object[] row = new Object[fieldOfColumn.length];
    for (int c = 0; c < row.length; c++) {
      row[c] = converters.get(c).convert(fields.get(fieldOfColumn[c]));
    }
    return row;
  }
}
