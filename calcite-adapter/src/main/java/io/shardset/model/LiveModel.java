package io.shardset.model;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * A schema's model as its model file says now, for the parts that may change while the
 * process runs (the chunk map and a resharding in progress); shared by every connection of
 * the process that reads that file.
 *
 * <p>Executions {@linkplain #enter() enter} under the current snapshot and leave when they
 * close, so that the resharding tool can wait until no execution that started under an older
 * snapshot still runs before it takes a step those executions would not expect.
 */
public final class LiveModel {
  /** The model at one moment. */
  public record Snapshot(long version, ShardSetModel model) {
  }

  /** One execution running under a snapshot; closing it (more than once is fine) ends it. */
  public interface Ticket extends AutoCloseable {
    /** The snapshot the execution runs under. */
    Snapshot snapshot();

    @Override void close();
  }

  private LiveModel() {
  }

  /**
   * The live model of a schema whose operand Calcite read from a model file (the operand's
   * {@code modelUri}); null for an inline model, which cannot change.
   *
   * @param initial the model parsed from the operand at connect time
   */
  public static LiveModel of(String schema, Map<String, ?> operand, ShardSetModel initial) {
    throw new UnsupportedOperationException("not yet");
  }

  /** The current snapshot; re-reads the file when it changed (checked at most every 200 ms). */
  public Snapshot current() {
    throw new UnsupportedOperationException("not yet");
  }

  /** Starts an execution under the current snapshot. */
  public Ticket enter() {
    throw new UnsupportedOperationException("not yet");
  }

  /**
   * Makes every live model of this process that reads {@code modelFile} re-read it now, then
   * waits until no execution that entered under an older snapshot is still running.
   *
   * @throws TimeoutException if such executions still run after {@code timeout}; the message
   *     says how many
   */
  public static void publishAndDrain(Path modelFile, Duration timeout)
      throws TimeoutException, InterruptedException {
    // Filled in with the registry of live models.
  }
}
