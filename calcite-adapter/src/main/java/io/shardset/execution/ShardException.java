package io.shardset.execution;

import java.util.Objects;

/**
 * A query failed on one shard. The message names the shard and the cause, never its password:
 * {@code shard 's2' failed: <cause message>}, or {@code shard 's2' is busy: ...} when the
 * statement waited too long for a connection of the shard's pool.
 */
public final class ShardException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String shardName;
  private final String detail;

  private final boolean busy;

  /** Creates an exception; {@code detail} must already be free of secrets. */
  public ShardException(String shardName, String detail, Throwable cause) {
    this(shardName, detail, cause, false);
  }

  private ShardException(String shardName, String detail, Throwable cause, boolean busy) {
    super("shard '" + shardName + (busy ? "' is busy: " : "' failed: ") + detail, cause);
    this.shardName = Objects.requireNonNull(shardName, "shardName");
    this.detail = Objects.requireNonNull(detail, "detail");
    this.busy = busy;
  }

  /**
   * Creates the exception for a failure of {@code endpoint}, with the cause's message redacted
   * by the endpoint; a cause chain that would leak a secret is replaced by a redacted copy.
   */
  static ShardException of(ShardEndpoint endpoint, Throwable cause) {
    String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
    return new ShardException(endpoint.name(), endpoint.redact(message),
        Secrets.redactChain(cause, endpoint::redact), cause instanceof ShardBusyException);
  }

  /**
   * Returns whether every connection of the shard's pool was in use for longer than a
   * statement may wait: the shard did not fail, others held it.
   */
  public boolean busy() {
    return busy;
  }

  /** Returns the name of the shard that failed. */
  public String shardName() {
    return shardName;
  }

  /** Returns what went wrong, without the shard's name. */
  public String detail() {
    return detail;
  }
}
