package io.shardset.calcite.runtime;

import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import java.sql.SQLException;

/** A write's row count as the one-row result generated code returns: the write runs when the
 * result is first enumerated, and its SQLException is carried by a
 * {@link WriteFailedException}. */
final class DeferredCount {
  /** A write that returns its row count. */
  interface Write {
    long run() throws SQLException;
  }

  private DeferredCount() {
  }

  static Enumerable<Long> of(Write write) {
    return new AbstractEnumerable<Long>() {
      @Override public Enumerator<Long> enumerator() {
        try {
          return Linq4j.singletonEnumerable(write.run()).enumerator();
        } catch (SQLException e) {
          throw new WriteFailedException(e);
        }
      }
    };
  }
}
