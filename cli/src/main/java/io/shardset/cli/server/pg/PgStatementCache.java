package io.shardset.cli.server.pg;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A session's prepared statements that its client closed or replaced, by text, to prepare
 * again without preparing: drivers send most statements unnamed (pgbench's
 * {@code -M extended}, node-postgres's parameterized queries, pgJDBC's first runs), so each
 * run would otherwise prepare its text anew on the embedded connection. The least recently
 * kept goes, closed, past {@value #SIZE}.
 */
final class PgStatementCache implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PgStatementCache.class);
  private static final int SIZE = 32;

  private final Map<String, PreparedStatement> kept =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> e) {
          if (size() > SIZE) {
            close(e.getValue());
            return true;
          }
          return false;
        }
      };

  /** A statement of this text kept before, its parameters cleared, or null. */
  PreparedStatement take(String sql) throws SQLException {
    final PreparedStatement statement = kept.remove(sql);
    if (statement != null) {
      statement.clearParameters();
    }
    return statement;
  }

  /** Keeps a statement the client is done with. */
  void keep(String sql, PreparedStatement statement) {
    final PreparedStatement before = kept.put(sql, statement);
    if (before != null && before != statement) {
      close(before);
    }
  }

  private static void close(PreparedStatement statement) {
    try {
      statement.close();
    } catch (SQLException e) {
      LOG.debug("closing a kept statement failed", e);
    }
  }

  @Override public void close() {
    for (PreparedStatement statement : kept.values()) {
      close(statement);
    }
    kept.clear();
  }
}
