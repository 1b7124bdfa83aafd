package io.shardset.distribution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Commands run as a user of the unpacked archive runs them: in its folder, with an environment
 * that holds a Java runtime on the PATH, the system's own tools and a home folder, and nothing
 * of the build (no JAVA_HOME, no Maven, no class path).
 */
final class Shell {
  private final Path folder;
  private final Path home;

  Shell(Path folder, Path home) {
    this.folder = folder;
    this.home = home;
  }

  /** A command that has not started yet, its standard error joined to its output. */
  ProcessBuilder command(String... words) {
    final ProcessBuilder builder = new ProcessBuilder(words).directory(folder.toFile());
    final Map<String, String> environment = builder.environment();
    environment.clear();
    environment.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":/usr/bin:/bin");
    environment.put("HOME", home.toString());
    environment.put("LANG", "C.UTF-8");
    return builder.redirectErrorStream(true);
  }

  /** Runs a command to its end and returns its output; fails unless it exits with 0. */
  String run(String... words) throws IOException, InterruptedException {
    final Process process = command(words).start();
    process.getOutputStream().close();
    final String output = new String(process.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), () -> String.join(" ", words) + " failed:\n" + output);
    return output;
  }

  /** The lines of a run's output that sqlline printed as CSV rows (quoted fields). */
  static List<String> csvRows(String output) {
    return output.lines().filter(line -> line.startsWith("'")).toList();
  }
}
