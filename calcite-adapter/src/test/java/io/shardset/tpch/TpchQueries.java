package io.shardset.tpch;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The 22 TPC-H queries, with the row counts of the TPC-H kit's answers at scale factor 0.01. */
final class TpchQueries {
  static final List<TpchQuery> ALL = List.of(
      // The means; Calcite's text takes them over DOUBLE (q01-calcite.sql says why).
      new TpchQuery(1, true, 4, Set.of(6, 7, 8)),
      // Suppliers are unique by name and each supplies a part once: the order is total.
      new TpchQuery(2, true, 4, Set.of()),
      new TpchQuery(3, false, 10, Set.of()),
      new TpchQuery(4, true, 5, Set.of()),
      new TpchQuery(5, false, 5, Set.of()),
      new TpchQuery(6, true, 1, Set.of()),
      new TpchQuery(7, true, 4, Set.of()),
      // At this scale factor BRAZIL's share is 0 in both years, as in the kit's answer.
      new TpchQuery(8, true, 2, Set.of(1)),
      new TpchQuery(9, true, 173, Set.of()),
      new TpchQuery(10, false, 20, Set.of()),
      new TpchQuery(11, false, 359, Set.of()),
      new TpchQuery(12, true, 2, Set.of()),
      new TpchQuery(13, true, 33, Set.of()),
      new TpchQuery(14, true, 1, Set.of(0)),
      new TpchQuery(15, true, 1, Set.of()),
      new TpchQuery(16, true, 296, Set.of()),
      // At this scale factor no line qualifies and the sum is NULL, as in the kit's answer.
      new TpchQuery(17, true, 1, Set.of(0)),
      new TpchQuery(18, false, 2, Set.of()),
      new TpchQuery(19, true, 1, Set.of()),
      // Supplier names are unique.
      new TpchQuery(20, true, 1, Set.of()),
      new TpchQuery(21, true, 1, Set.of()),
      new TpchQuery(22, true, 7, Set.of()));

  /** The queries that do not yet run through ShardSet, by number: none at present. */
  private static final Map<Integer, KnownFailure> KNOWN_FAILURES = Map.of();

  private TpchQueries() {
  }

  /** How a query is known to fail through ShardSet, if it is. */
  static Optional<KnownFailure> knownFailure(TpchQuery query) {
    return Optional.ofNullable(KNOWN_FAILURES.get(query.number()));
  }

  /** The query with this number. */
  static TpchQuery query(int number) {
    return ALL.get(number - 1);
  }
}
