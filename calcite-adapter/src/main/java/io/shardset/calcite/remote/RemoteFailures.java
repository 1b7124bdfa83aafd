package io.shardset.calcite.remote;

import io.shardset.calcite.jdbc.ClientErrors;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaSqlException;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A ShardSet server's error as a {@code jdbc:shardset:remote:} client gets it: an
 * SQLException whose message is the server's reason, exactly as {@code jdbc:shardset:} words
 * the same failure, with the server's SQLState and vendor code, and the server's error, as
 * Avatica's client represents it ({@link AvaticaSqlException}, with the server's "stack
 * traces"), as its cause. Avatica's client would put its own words in front instead
 * ({@code Error 0 (42000) : Error while executing SQL "...": Remote driver error: }), or,
 * for a failed {@code prepareStatement}, replace the reason by the SQL text.
 */
final class RemoteFailures {
  /** What Avatica's client writes in front of the message of every error the server sent. */
  private static final String REMOTE = "Remote driver error: ";
  /** The SQLState of a connection that could not be made. */
  static final String UNREACHABLE = "08001";
  /** The server's address in a URL. */
  private static final Pattern SERVER_URL = Pattern.compile("(?i)(?:^|[:;])url=([^;]*)");

  private RemoteFailures() {
  }

  /**
   * The SQLException for an error the server sent; null for any other failure (the client's
   * own, or a transport's, which Avatica's client words as it does).
   */
  static @Nullable SQLException of(Throwable failure) {
    if (!(failure instanceof AvaticaClientRuntimeException remote)
        || remote.getMessage() == null || !remote.getMessage().startsWith(REMOTE)) {
      return null;
    }
    final String reason = remote.getMessage().substring(REMOTE.length());
    final AvaticaSqlException server = new AvaticaSqlException(reason, remote.getSqlState(),
        remote.getErrorCode(), remote.getServerExceptions(),
        remote.getRpcMetadata() == null ? null : remote.getRpcMetadata().serverAddress);
    // What JDBC promises for a statement out of time, as ResultSet.next() threw before.
    return ClientErrors.CANCELED.equals(remote.getSqlState())
        ? new SQLTimeoutException(reason, remote.getSqlState(), remote.getErrorCode(), server)
        : new SQLException(reason, remote.getSqlState(), remote.getErrorCode(), server);
  }

  /**
   * The failure of a connection that could not reach the server: 08001, naming the server's
   * address (not the URL, which may hold a password) and the transport's reason.
   */
  static SQLException unreachable(String url, RuntimeException failure) {
    final Matcher address = SERVER_URL.matcher(url);
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    final String reason = root.getMessage() == null ? root.getClass().getSimpleName()
        : root.getMessage();
    return new SQLException("cannot connect to the ShardSet server at "
        + (address.find() ? address.group(1) : "the URL's address") + ": "
        + (reason.contains("HTTP/401") ? "the user name or password was refused (HTTP 401)"
        : reason), UNREACHABLE, failure);
  }

  /**
   * The failure a client gets for what a prepared statement's execution threw: Avatica's
   * client wraps an SQLException that its metadata threw (a server's error made here, or a
   * timeout) in one without a state whose message repeats it, which says nothing more.
   */
  static SQLException unwrap(SQLException e) {
    return e.getSQLState() == null && e.getCause() instanceof SQLException stated
        && stated.getSQLState() != null ? stated : e;
  }
}
