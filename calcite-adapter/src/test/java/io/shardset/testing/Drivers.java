package io.shardset.testing;

import java.sql.SQLException;

/**
 * The two drivers that plan statements in-process, for tests that run on both: Calcite's own
 * {@code jdbc:calcite:} and ShardSet's {@code jdbc:shardset:}, which adds its plan cache and
 * classifies failures.
 */
public enum Drivers {
  CALCITE(Connector.CALCITE, "jdbc:calcite:"),
  SHARDSET(Connector.SHARDSET, "jdbc:shardset:");

  private final Connector connector;
  private final String url;

  Drivers(Connector connector, String url) {
    this.connector = connector;
    this.url = url;
  }

  /** How to open a connection on an inline model. */
  public Connector connector() {
    return connector;
  }

  /** The URL that opens a connection with properties of its own. */
  public String url() {
    return url;
  }

  /**
   * The reason a statement failed, with its SQLState: {@code jdbc:shardset:} gives both on
   * the exception, Calcite's driver gives the reason as the innermost cause's message and no
   * state, for which {@code calciteState} stands.
   */
  public String reason(SQLException e, String calciteState) {
    if (this == SHARDSET) {
      return e.getSQLState() + " " + e.getMessage();
    }
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return calciteState + " " + t.getMessage();
  }
}
