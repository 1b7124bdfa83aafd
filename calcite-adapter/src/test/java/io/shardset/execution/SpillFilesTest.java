package io.shardset.execution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spill files carry their process's id, and only those of processes that ended are deleted
 * by a runtime that starts. */
class SpillFilesTest {
  @Test void aFileNamesItsProcess() throws IOException {
    final Path directory = Files.createTempDirectory("spill");
    try {
      final Path file = SpillFiles.create(directory);
      assertTrue(file.getFileName().toString()
          .startsWith("shardset-" + ProcessHandle.current().pid() + "-"), file.toString());
      assertTrue(file.getFileName().toString().endsWith(".rows"), file.toString());
    } finally {
      try (Stream<Path> files = Files.list(directory)) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
      Files.delete(directory);
    }
  }

  @Test void onlyTheFilesOfEndedProcessesAreDeleted(@TempDir Path directory)
      throws IOException, InterruptedException {
    final Process ended = new ProcessBuilder("true").start();
    assertEquals(0, ended.waitFor());
    final long live = ProcessHandle.current().pid();
    final Path stale = Files.createFile(directory.resolve("shardset-" + ended.pid() + "-1.rows"));
    final Path own = Files.createFile(directory.resolve("shardset-" + live + "-2.rows"));
    // Named before files carried a process id, and files of other programs: left alone.
    final Path unnamed = Files.createFile(directory.resolve("shardset-3.rows"));
    final Path other = Files.createFile(directory.resolve("shardset-" + ended.pid() + "-4.txt"));
    assertEquals(1, SpillFiles.removeStale(directory));
    try (Stream<Path> files = Files.list(directory)) {
      assertEquals(List.of(other, own, unnamed).stream().sorted().toList(),
          files.sorted().toList());
    }
    assertTrue(Files.notExists(stale));
  }

  @Test void aFolderThatCannotBeReadDeletesNothing(@TempDir Path directory) {
    assertEquals(0, SpillFiles.removeStale(directory.resolve("missing")));
  }
}
