package io.shardset.topology;

/**
 * A statement this process must not run: it lost its lease on a model kept in a catalog (it
 * could not reach the catalog for longer than the lease), so other processes may have gone
 * on to a newer version without it. SQLState {@value #SQL_STATE}, a connection failure, so
 * that pools and clients behind a load balancer try another server.
 */
public final class LeaseLostException extends IllegalStateException {
  /** The SQLState a JDBC client sees. */
  public static final String SQL_STATE = "08006";
  private static final long serialVersionUID = 1L;

  LeaseLostException(String message) {
    super(message);
  }

  /** The SQLState a JDBC client sees. */
  public String sqlState() {
    return SQL_STATE;
  }
}
