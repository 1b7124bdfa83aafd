package io.shardset.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests {@link Publication}. */
class PublicationTest {
  @Test void copiesResultsAndChartsAndDropsChartsOfThePreviousRun(@TempDir Path tmp)
      throws Exception {
    final Path run = Files.createDirectories(tmp.resolve("target"));
    Files.writeString(run.resolve("results.md"), "new");
    Files.writeString(run.resolve("throughput.png"), "chart");
    Files.writeString(run.resolve("runtime.classpath"), "not published");
    final Path published = Files.createDirectories(tmp.resolve("results"));
    Files.writeString(published.resolve("results.md"), "old");
    Files.writeString(published.resolve("gone.png"), "old chart");

    Publication.copy(run, published);

    try (Stream<Path> files = Files.list(published)) {
      assertEquals(List.of("results.md", "throughput.png"),
          files.map(p -> p.getFileName().toString()).sorted().toList());
    }
    assertEquals("new", Files.readString(published.resolve("results.md")));
  }
}
