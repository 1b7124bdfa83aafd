package io.shardset.tpch;

import org.junit.jupiter.api.Assumptions;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/** A TPC-H query's rows through ShardSet against those of an unsharded database. */
final class TpchComparison {
  private TpchComparison() {
  }

  /**
   * Runs {@code query} on the unsharded database (the specification's text) and through
   * ShardSet (Calcite's), and fails unless the rows are the same, in order where the query
   * orders them totally, approximately in its floating-point columns.
   */
  static void assertSameRows(TpchQuery query, Connection unsharded, Connection shardSet)
      throws SQLException {
    final ResultRows expected = rows(unsharded, query.sql(TpchQuery.Engine.H2));
    // An empty oracle result would make the comparison prove nothing.
    assertEquals(query.rows(), expected.size(), query + " rows on the unsharded database");
    final Optional<KnownFailure> knownFailure = TpchQueries.knownFailure(query);
    if (knownFailure.isPresent()) {
      final SQLException e = assertThrows(SQLException.class,
          () -> rows(shardSet, query.sql(TpchQuery.Engine.CALCITE)),
          query + " is listed as failing; if it runs now, take it off the list");
      assertEquals(knownFailure.get().error(), rootCause(e).toString(), query + " error");
      Assumptions.abort(query + " does not run through ShardSet: "
          + knownFailure.get().reason());
    }
    final ResultRows actual = rows(shardSet, query.sql(TpchQuery.Engine.CALCITE));
    final ResultComparison comparison = new ResultComparison(query.approximateColumns());
    final Optional<String> difference = query.totalOrder()
        ? comparison.difference(expected, actual)
        : comparison.difference(expected.sorted(), actual.sorted());
    if (difference.isPresent()) {
      fail(query + " through ShardSet differs from the unsharded database: "
          + difference.get());
    }
  }

  private static Throwable rootCause(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  private static ResultRows rows(Connection on, String sql) throws SQLException {
    try (Statement s = on.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return ResultRows.read(rs);
    }
  }
}
