package io.shardset.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running a main class of this module on this JVM's class path, and the lines it
 * prints, read as they come, so that the parent can wait for each with a time limit and kill
 * the child when one is late (w8's and w16's N, w18): a planner cannot be interrupted, and a
 * thread left planning would slow down every later measurement.
 */
final class ChildJvm implements AutoCloseable {
  /** The line that follows the child's last: its output closed. */
  static final String EOF = "eof";

  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private ChildJvm(Process process) {
    this.process = process;
  }

  /** Starts {@code main} with {@code args}; its standard error goes to this JVM's. */
  static ChildJvm start(Class<?> main, List<String> args) throws IOException {
    final List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", main.getName()));
    command.addAll(args);
    final ChildJvm child = new ChildJvm(new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start());
    final Thread reader = new Thread(child::forward, main.getSimpleName() + "-reader");
    reader.setDaemon(true);
    reader.start();
    return child;
  }

  /** The next line, or null if none came within {@code timeout}. */
  String poll(Duration timeout) throws InterruptedException {
    return lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Passes the child's output lines on; a closed stream ends with {@link #EOF}. */
  private void forward() {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      lines.add("error " + e.getMessage());
    }
    lines.add(EOF);
  }

  /** Kills the child, finished or not, and waits for it to end. */
  @Override public void close() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }
}
