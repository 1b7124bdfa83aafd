package io.shardset.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * w10: the wall time from starting {@code sqlline/sqlline} on the demo model to the first
 * result row on its standard output, as a user at a shell waits for it. One unrecorded run
 * first builds the project if needed and creates the demo data, so the measured runs time
 * neither.
 */
public final class LauncherBench {
  /** The query; its one numeric row is what {@link FirstResultRow} waits for. */
  static final String QUERY = "SELECT COUNT(*) AS ORDER_COUNT FROM ORDERS;";
  private static final long TIMEOUT_SECONDS = 600;

  private final Path root;

  /** A launcher benchmark of the checkout at {@code root}. */
  public LauncherBench(Path root) {
    this.root = root;
  }

  /** One unrecorded run, then {@code runs} measured ones; their times in nanoseconds. */
  public long[] measure(int runs) throws IOException, InterruptedException {
    run();
    final long[] result = new long[runs];
    for (int i = 0; i < runs; i++) {
      result[i] = run();
    }
    return result;
  }

  /** Starts the launcher and returns the nanoseconds until its first result row. */
  private long run() throws IOException, InterruptedException {
    final long start = System.nanoTime();
    final Process process = new ProcessBuilder(
        List.of(root.resolve("sqlline").resolve("sqlline").toString(), "-e", QUERY))
        .directory(root.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .start();
    long firstRow = -1;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (firstRow < 0 && FirstResultRow.matches(line)) {
          firstRow = System.nanoTime() - start;
        }
      }
    } finally {
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
    if (process.exitValue() != 0 || firstRow < 0) {
      throw new IOException("sqlline/sqlline -e \"" + QUERY + "\" exited with "
          + process.exitValue() + (firstRow < 0 ? " before printing a result row" : ""));
    }
    return firstRow;
  }
}
