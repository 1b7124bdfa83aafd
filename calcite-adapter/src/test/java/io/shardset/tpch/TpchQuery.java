package io.shardset.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * One of the 22 TPC-H queries with its validation parameters, and how its results compare.
 *
 * <p>The text is read from {@code qNN.sql} next to this class; a query whose text must differ
 * between the engines has {@code qNN-calcite.sql} and {@code qNN-h2.sql} instead.
 *
 * @param number the query's number, 1 to 22
 * @param totalOrder whether the query's ORDER BY orders its rows totally, so that they compare
 *     in order; otherwise they compare as multisets
 * @param rows the number of rows the query returns at scale factor 0.01
 * @param approximateColumns the 0-based columns whose value is a quotient (AVG or a division)
 *     that the engines may round differently
 */
record TpchQuery(int number, boolean totalOrder, int rows, Set<Integer> approximateColumns) {
  /** The engine a query text is for. */
  enum Engine {
    CALCITE, H2
  }

  TpchQuery {
    if (number < 1 || number > 22) {
      throw new IllegalArgumentException("no TPC-H query " + number);
    }
    approximateColumns = Set.copyOf(approximateColumns);
  }

  /** The query's text for an engine. */
  String sql(Engine engine) {
    final String shared = String.format(Locale.ROOT, "q%02d.sql", number);
    final String own = String.format(Locale.ROOT, "q%02d-%s.sql", number,
        engine.name().toLowerCase(Locale.ROOT));
    try (InputStream in = open(own, shared)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InputStream open(String own, String shared) {
    final InputStream in = TpchQuery.class.getResourceAsStream(own);
    if (in != null) {
      return in;
    }
    final InputStream sharedIn = TpchQuery.class.getResourceAsStream(shared);
    if (sharedIn == null) {
      throw new IllegalStateException("neither " + own + " nor " + shared + " exists");
    }
    return sharedIn;
  }

  @Override public String toString() {
    return "Q" + number;
  }
}
