package io.shardset.cli.server.pg;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs PostgreSQL's {@code psql} on a server's port as a user would: unaligned, tuples only,
 * stopping at the first error, its output and errors kept apart.
 */
final class Psql {
  /** What a run printed, and how it ended. */
  record Run(int exitCode, String out, String err) {
    /** Its output's lines. */
    List<String> lines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }
  }

  private Psql() {
  }

  /** The psql command; a test fails, not skips, on a machine without it. */
  static String command() {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(folder, "psql"))) {
        return Path.of(folder, "psql").toString();
      }
    }
    throw new AssertionError("psql is not on the PATH: install PostgreSQL's client"
        + " (Debian: postgresql-client)");
  }

  /** Starts psql with these arguments after the connection's, {@code password} in its
   * environment when not null. */
  static Process start(int port, String user, String password, String... arguments)
      throws IOException {
    final List<String> command = new ArrayList<>(List.of(command(), "-X", "-q", "-A", "-t",
        "-v", "ON_ERROR_STOP=1", "-v", "VERBOSITY=verbose", "-h", "127.0.0.1",
        "-p", Integer.toString(port), "-U", user, "-d", "shardset"));
    command.addAll(List.of(arguments));
    final ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("PGPASSWORD");
    builder.environment().put("PGCONNECT_TIMEOUT", "30");
    if (password != null) {
      builder.environment().put("PGPASSWORD", password);
    }
    return builder.start();
  }

  /** Runs psql to its end. */
  static Run run(int port, String user, String password, String... arguments)
      throws IOException, InterruptedException {
    final Process process = start(port, user, password, arguments);
    process.getOutputStream().close();
    final String out = new String(process.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    final String err = new String(process.getErrorStream().readAllBytes(),
        StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("psql did not end: " + out + err);
    }
    return new Run(process.exitValue(), out.strip(), err.strip());
  }
}
