package io.shardset.testing;

import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** A query read to its end on another thread, while the test stops it from its own. */
public final class BackgroundQuery {
  private BackgroundQuery() {
  }

  /** Reads every row of a query on {@code executor}; the future holds its failure, or null. */
  public static Future<Throwable> readAll(ExecutorService executor, Statement s, String sql) {
    return executor.submit(() -> {
      try (ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          rs.getObject(1);
        }
        return null;
      } catch (Throwable t) {
        return t;
      }
    });
  }
}
