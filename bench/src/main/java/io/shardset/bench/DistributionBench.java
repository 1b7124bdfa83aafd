package io.shardset.bench;

import com.google.common.io.MoreFiles;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * w22: the server distribution as an operator meets it. The sizes of the release files (the
 * archives and the driver jar), {@code bin/shardset --version} from start to exit, and
 * {@code bin/shardset-server} on the example model from start to the first row of a remote
 * query, the query sent through Avatica's remote driver as soon as the server prints where it
 * listens. The archive is unpacked afresh under {@code bench/target/} and the example's rows
 * are loaded once, unrecorded; each measured command has one unrecorded run before.
 */
public final class DistributionBench {
  private static final Pattern SERVING = Pattern.compile(
      "Serving .* at (jdbc:avatica:remote:url=http://[^;]+;serialization=protobuf).*");
  private static final String QUERY = "SELECT COUNT(*) FROM ORDERS";
  private static final long TIMEOUT_SECONDS = 120;

  private final Path release;
  private final Path home;

  private DistributionBench(Path release, Path home) {
    this.release = release;
    this.home = home;
  }

  /**
   * Unpacks the archive that {@code distribution/target/release} of the checkout at
   * {@code root} holds into {@code work} and loads the example's rows.
   */
  public static DistributionBench unpack(Path root, Path work)
      throws IOException, InterruptedException {
    final Path release = root.resolve("distribution").resolve("target").resolve("release");
    final Path archive = only(release, ".tar.gz");
    if (Files.exists(work)) {
      MoreFiles.deleteRecursively(work);
    }
    Files.createDirectories(work);
    run(work, "tar", "-xzf", archive.toString());
    final String folder = archive.getFileName().toString().replace(".tar.gz", "");
    final DistributionBench bench = new DistributionBench(release, work.resolve(folder));
    for (String table : List.of("COUNTRIES", "CUSTOMERS", "ORDERS")) {
      run(bench.home, "bin/shardset", "load", "--model", "conf/example-model.json", "--table",
          table, "examples/" + table.toLowerCase(Locale.ROOT) + ".csv");
    }
    return bench;
  }

  /** The release files and their sizes. */
  public ResultTable sizes() throws IOException {
    final List<List<String>> rows = new ArrayList<>();
    try (Stream<Path> files = Files.list(release)) {
      for (Path file : (Iterable<Path>) files.sorted()::iterator) {
        if (file.getFileName().toString().equals("SHA256SUMS")) {
          continue;
        }
        final long bytes = Files.size(file);
        rows.add(List.of(file.getFileName().toString(),
            String.format(Locale.ROOT, "%,d", bytes),
            String.format(Locale.ROOT, "%.1f", bytes / 1024.0 / 1024.0)));
      }
    }
    return new ResultTable("w22 release files",
        "the files of distribution/target/release as the build makes them", List.of("file",
        "bytes", "MiB"), rows);
  }

  /** {@code bin/shardset --version}, start to exit, after one unrecorded run; nanoseconds. */
  public long[] version(int runs) throws IOException, InterruptedException {
    run(home, "bin/shardset", "--version");
    final long[] result = new long[runs];
    for (int i = 0; i < runs; i++) {
      final long start = System.nanoTime();
      run(home, "bin/shardset", "--version");
      result[i] = System.nanoTime() - start;
    }
    return result;
  }

  /**
   * {@code bin/shardset-server} from start to the first row of a remote query, after one
   * unrecorded run; nanoseconds. Each run stops its server (SIGTERM) before the next.
   */
  public long[] serverToFirstAnswer(int runs) throws Exception {
    serverToFirstAnswer();
    final long[] result = new long[runs];
    for (int i = 0; i < runs; i++) {
      result[i] = serverToFirstAnswer();
    }
    return result;
  }

  private long serverToFirstAnswer() throws Exception {
    final long start = System.nanoTime();
    final Process server = new ProcessBuilder("bin/shardset-server", "--model",
        "conf/example-model.json", "--port", "0")
        .directory(home.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    try {
      final String url = servingUrl(server);
      try (Connection c = DriverManager.getConnection(url);
           Statement s = c.createStatement();
           ResultSet rs = s.executeQuery(QUERY)) {
        if (!rs.next() || rs.getLong(1) == 0) {
          throw new SQLException("the example's ORDERS answered no rows");
        }
        return System.nanoTime() - start;
      }
    } finally {
      server.destroy();
      if (!server.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  /** Reads the server's output up to the line that says where it serves. */
  private static String servingUrl(Process server) throws IOException {
    final BufferedReader output = new BufferedReader(new InputStreamReader(
        server.getInputStream(), StandardCharsets.UTF_8));
    for (String line = output.readLine(); line != null; line = output.readLine()) {
      final Matcher serving = SERVING.matcher(line);
      if (serving.matches()) {
        return serving.group(1);
      }
    }
    throw new IOException("bin/shardset-server ended without serving");
  }

  private static Path only(Path folder, String suffix) throws IOException {
    if (!Files.isDirectory(folder)) {
      throw new IOException(folder + " does not exist: build the distribution module first");
    }
    try (Stream<Path> files = Files.list(folder)) {
      final List<Path> matching = files.filter(file -> file.getFileName().toString()
          .endsWith(suffix)).toList();
      if (matching.size() != 1) {
        throw new IOException("expected one *" + suffix + " in " + folder + ", found "
            + matching);
      }
      return matching.get(0);
    }
  }

  private static void run(Path folder, String... command)
      throws IOException, InterruptedException {
    final Process process = new ProcessBuilder(command).directory(folder.toFile())
        .redirectErrorStream(true).start();
    process.getOutputStream().close();
    final String output = new String(process.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException(String.join(" ", command) + " failed:\n" + output);
    }
  }
}
