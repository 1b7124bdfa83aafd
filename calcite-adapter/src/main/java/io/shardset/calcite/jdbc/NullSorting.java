package io.shardset.calcite.jdbc;

import org.apache.calcite.avatica.InternalProperty;
import org.apache.calcite.config.NullCollation;

import java.util.Map;

/**
 * Where a connection's queries put NULLs, as {@code DatabaseMetaData.nullsAreSorted*} reports
 * it. Avatica answers those four questions from the connection's
 * {@link InternalProperty#NULL_SORTING}, which Calcite never sets, so every Calcite
 * connection said "at the end" while its queries sort by the connection's
 * {@code defaultNullCollation} (HIGH unless the connection names another: NULLs last in
 * ascending order and first in descending order).
 */
public final class NullSorting {
  private NullSorting() {
  }

  /**
   * Avatica's value for what {@code collation} does. Avatica's enum of them is not public:
   * its constants are found by name in the class of the property's default value.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Object of(NullCollation collation) {
    final Enum<?> end = InternalProperty.NULL_SORTING.getEnum(Map.of(), Enum.class);
    return Enum.valueOf((Class) end.getDeclaringClass(), avaticaName(collation));
  }

  private static String avaticaName(NullCollation collation) {
    switch (collation) {
    case HIGH:
      return "HIGH";
    case LOW:
      return "LOW";
    case FIRST:
      return "START";
    case LAST:
      return "END";
    default:
      throw new AssertionError("unknown null collation " + collation);
    }
  }
}
