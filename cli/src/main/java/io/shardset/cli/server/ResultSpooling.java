package io.shardset.cli.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How the server reads a remote statement's result ahead of its client, so that the shard
 * connections behind it go back to their pools once the shards have answered, not once the
 * client has read the last row: the rows past the first frame are kept in memory, up to
 * {@code statementMemory} bytes for one statement and {@code serverMemory} for all of them,
 * then in a temporary file in {@code directory}; past {@code statementLimit} bytes the rest of
 * the result is read from the shards as the client fetches it (its connections stay held).
 *
 * @param statementMemory bytes of one statement's rows kept in memory
 * @param serverMemory bytes of all statements' rows kept in memory
 * @param statementLimit bytes of one statement's rows read ahead in all; 0 reads nothing
 *     ahead (every result is streamed from the shards at the client's pace)
 * @param directory where the files of rows go; deleted when their statement closes or expires
 * @param fetchTimeout how long a result that is still read from the shards as its client
 *     fetches (past {@code statementLimit}) may wait for the client's next fetch before the
 *     server closes its statement and releases its shard connections: a client that vanished
 *     mid-result holds them no longer than this
 */
public record ResultSpooling(long statementMemory, long serverMemory, long statementLimit,
    Path directory, Duration fetchTimeout) {
  /** 4 MiB per statement and 256 MiB in all in memory, 1 GiB per statement, in the system's
   * temporary folder; 30 s for a client's next fetch of a streamed result. */
  public static final ResultSpooling DEFAULT = new ResultSpooling(4L << 20, 256L << 20,
      1L << 30, Path.of(System.getProperty("java.io.tmpdir")), Duration.ofSeconds(30));

  public ResultSpooling {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(fetchTimeout, "fetchTimeout");
    if (fetchTimeout.toMillis() < 1) {
      throw new IllegalArgumentException("fetch timeout must be positive: " + fetchTimeout);
    }
    if (statementMemory < 0 || serverMemory < 0 || statementLimit < 0) {
      throw new IllegalArgumentException("result spooling sizes must not be negative: "
          + statementMemory + ", " + serverMemory + ", " + statementLimit);
    }
  }

  /** The same settings, where every result is read from the shards at its client's pace. */
  public ResultSpooling streamed() {
    return new ResultSpooling(statementMemory, serverMemory, 0, directory, fetchTimeout);
  }

  /** The same settings with another fetch timeout. */
  public ResultSpooling withFetchTimeout(Duration timeout) {
    return new ResultSpooling(statementMemory, serverMemory, statementLimit, directory,
        timeout);
  }

  /** Whether results are read ahead of their clients at all. */
  public boolean enabled() {
    return statementLimit > 0;
  }
}
