package io.shardset.reshard;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock that lets one mover at a time work on a model file: a second one running at the same
 * time would empty move tables the first has verified, and rows would be lost. An operating
 * system lock on a file next to the model, so that it is released when the process dies.
 */
final class MoveLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private MoveLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock of a model file.
   *
   * @throws IllegalStateException if another mover (in this or another process) holds it
   */
  static MoveLock acquire(Path modelFile) throws IOException {
    final Path path = lockFile(modelFile);
    final FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    FileLock lock = null;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      // Held by this process.
    }
    if (lock == null) {
      channel.close();
      throw new IllegalStateException("another reshard apply is running on " + modelFile
          + " (it holds " + path + "); wait for it to end");
    }
    return new MoveLock(channel, lock);
  }

  /** The lock file of a model file: next to it, hidden. */
  static Path lockFile(Path modelFile) {
    final Path absolute = modelFile.toAbsolutePath();
    return absolute.resolveSibling("." + absolute.getFileName() + ".reshard-lock");
  }

  @Override public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
