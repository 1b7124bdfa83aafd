package io.shardset.util;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;

/**
 * Replacing a file whole, so that a reader (a running server, another process) sees the old
 * text or the new, never half of it: the text goes to a new file in the same folder, is forced
 * to disk, takes the old file's permissions and group, and is renamed over it.
 */
public final class AtomicFiles {
  private AtomicFiles() {
  }

  /** Replaces {@code path} (or creates it, readable by its owner only) with {@code text}. */
  public static void replace(Path path, String text) throws IOException {
    final Path folder = path.toAbsolutePath().getParent();
    final Path temp = Files.createTempFile(folder, "." + path.getFileName(), ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        final ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
        channel.force(true);
      }
      keepAccess(path, temp);
      Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
    forceFolder(folder);
  }

  /**
   * Gives the new file the old one's permissions and group, as far as the platform and the
   * user's rights allow: a temporary file is readable by its owner only, and a server running
   * as another user must go on reading the file.
   */
  private static void keepAccess(Path old, Path temp) {
    try {
      final PosixFileAttributes attributes =
          Files.readAttributes(old, PosixFileAttributes.class);
      Files.setPosixFilePermissions(temp, attributes.permissions());
      Files.getFileAttributeView(temp, PosixFileAttributeView.class)
          .setGroup(attributes.group());
    } catch (UnsupportedOperationException | IOException e) {
      // No old file, not a POSIX file system, or a group the user may not give: the rename
      // goes on.
    }
  }

  /** Makes the rename durable where the platform allows syncing a folder. */
  private static void forceFolder(Path folder) {
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some platforms cannot open a folder; the rename itself is atomic all the same.
    }
  }
}
