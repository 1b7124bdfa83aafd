package io.shardset.execution;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The temporary files that operations above the shards spill rows to ({@link RowFile}), named
 * after the process that writes them: {@code shardset-<pid>-<n>.rows}. A process deletes its
 * files when the operation ends; one that is killed cannot, so each runtime, when it starts,
 * deletes the files of processes that no longer run, as PostgreSQL removes its temporary
 * files at start-up. A live process's files are never touched.
 */
public final class SpillFiles {
  private static final Logger LOG = LoggerFactory.getLogger(SpillFiles.class);
  private static final String PREFIX = "shardset-";
  private static final String SUFFIX = ".rows";
  private static final Pattern OWNED = Pattern.compile("shardset-([0-9]{1,18})-[0-9]+\\.rows");

  private SpillFiles() {
  }

  /** The folder spills write to: {@code java.io.tmpdir}. */
  public static Path directory() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** A new, empty spill file of this process in {@code directory}. */
  static Path create(Path directory) throws IOException {
    Files.createDirectories(directory);
    return Files.createTempFile(directory, PREFIX + ProcessHandle.current().pid() + "-",
        SUFFIX);
  }

  /**
   * Deletes the spill files in {@code directory} whose process no longer runs; returns how
   * many. A file that cannot be deleted is left (and logged); a folder that cannot be read
   * deletes nothing.
   */
  public static int removeStale(Path directory) {
    int removed = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, PREFIX + "*"
        + SUFFIX)) {
      for (Path file : files) {
        final Matcher m = OWNED.matcher(file.getFileName().toString());
        if (m.matches() && !running(Long.parseLong(m.group(1)))) {
          try {
            removed += Files.deleteIfExists(file) ? 1 : 0;
          } catch (IOException e) {
            LOG.warn("cannot delete {}, left by a process that no longer runs: {}", file,
                e.toString());
          }
        }
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.debug("cannot look for spill files left in {}: {}", directory, e.toString());
    }
    if (removed > 0) {
      LOG.info("deleted {} spill files left in {} by processes that no longer run", removed,
          directory);
    }
    return removed;
  }

  private static boolean running(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }
}
