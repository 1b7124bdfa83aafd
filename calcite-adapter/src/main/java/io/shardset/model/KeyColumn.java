package io.shardset.model;

import io.shardset.routing.KeyType;

import java.math.BigDecimal;
import java.sql.Types;
import java.util.Objects;
import java.util.Set;

/**
 * A shard key column with its routing type; reads the key values a model writes in JSON (range
 * bounds, listed values) as values of that type.
 *
 * <p>Reading is stricter than {@link KeyType#normalize}, which also serves query parameters: a
 * model must spell numbers as JSON numbers and dates, timestamps and text as strings, so that a
 * date written as a number (days since 1970) or a fraction listed for an integer column is
 * caught rather than silently matching nothing.
 *
 * @param column the column
 * @param type the column's key type
 */
record KeyColumn(ColumnInfo column, KeyType type) {
  private static final Set<Integer> INTEGER_TYPES =
      Set.of(Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT);

  KeyColumn {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(type, "type");
  }

  /**
   * The normalized key value a model literal stands for.
   *
   * @throws IllegalArgumentException saying what is wrong with the literal
   */
  Comparable<?> read(Object literal) {
    if (!hasExpectedJsonType(literal)) {
      throw new IllegalArgumentException("expected " + expected() + " for key column '"
          + column.name() + "' of type " + column.jdbcTypeName() + ", got "
          + OperandNode.describe(literal));
    }
    Comparable<?> value;
    try {
      value = type.normalize(literal);
    } catch (IllegalArgumentException e) {
      throw invalid(literal);
    }
    if (INTEGER_TYPES.contains(column.jdbcType())
        && ((BigDecimal) value).stripTrailingZeros().scale() > 0) {
      throw invalid(literal);
    }
    return value;
  }

  /** A normalized value as SQL spells it: 'EU', 2020-01-01, 12.5. */
  String format(Comparable<?> value) {
    return type.format(value);
  }

  /** Compares two normalized values of this column, which share one class. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  int compare(Comparable<?> left, Comparable<?> right) {
    return ((Comparable) left).compareTo(right);
  }

  private boolean hasExpectedJsonType(Object literal) {
    return switch (type) {
    case NUMBER -> literal instanceof Number;
    case BOOLEAN -> literal instanceof Boolean;
    case STRING, CHAR, DATE, TIMESTAMP -> literal instanceof String;
    };
  }

  private String expected() {
    return switch (type) {
    case NUMBER -> "a number";
    case BOOLEAN -> "true or false";
    case STRING, CHAR -> "a string";
    case DATE -> "a date string such as '2020-01-01'";
    case TIMESTAMP -> "a timestamp string such as '2020-01-01 10:00:00'";
    };
  }

  private IllegalArgumentException invalid(Object literal) {
    String shown = literal instanceof String text ? "'" + text + "'" : String.valueOf(literal);
    return new IllegalArgumentException("value " + shown + " is not a valid "
        + column.jdbcTypeName() + " for key column '" + column.name() + "'");
  }
}
