package io.shardset.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Copies a run's results.md and charts into the committed folder docs/benchmarks.md links
 * ({@code bench/results/}), replacing the previous run's; only when asked with
 * {@code --publish}, so that an ordinary run leaves the published results alone.
 */
final class Publication {
  static final Path FOLDER = Path.of("bench", "results");

  private Publication() {
  }

  /** Copies {@code results.md} and every {@code *.png} of {@code from} into {@code to}. */
  static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (DirectoryStream<Path> old = Files.newDirectoryStream(to, "*.png")) {
      for (Path chart : old) {
        Files.delete(chart);
      }
    }
    Files.copy(from.resolve("results.md"), to.resolve("results.md"),
        StandardCopyOption.REPLACE_EXISTING);
    try (DirectoryStream<Path> charts = Files.newDirectoryStream(from, "*.png")) {
      for (Path chart : charts) {
        Files.copy(chart, to.resolve(chart.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }
}
