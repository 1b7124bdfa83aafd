package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Rows written to a file with Java serialization, as the files of rows beyond a memory budget
 * take them ({@link RowFile}, a server's results read ahead). Java serialization keeps every
 * value written since its last reset reachable, to refer back to it; many files written at
 * once (a join's 64) would then hold their rows in the heap they spilled from. So the stream
 * resets every {@value #RESET_ROWS} rows or {@value #RESET_BYTES} bytes of them
 * ({@link RowSizes}), whichever comes first.
 */
public final class RowOutput implements Closeable {
  private static final int RESET_ROWS = 1_000;
  private static final long RESET_BYTES = 64 << 10;

  private final ObjectOutputStream out;
  private int rowsSinceReset;
  private long bytesSinceReset;

  /** A stream that writes a new file (or replaces one) at {@code path}. */
  public RowOutput(Path path) throws IOException {
    this.out = new ObjectOutputStream(new BufferedOutputStream(Files.newOutputStream(path)));
  }

  /** Writes a row of about {@code size} bytes ({@link RowSizes#of}). */
  public void write(@Nullable Object row, long size) throws IOException {
    out.writeUnshared(row);
    bytesSinceReset += size;
    if (++rowsSinceReset >= RESET_ROWS || bytesSinceReset >= RESET_BYTES) {
      out.reset();
      rowsSinceReset = 0;
      bytesSinceReset = 0;
    }
  }

  /** Makes what was written readable from the file. */
  public void flush() throws IOException {
    out.flush();
  }

  @Override public void close() throws IOException {
    out.close();
  }
}
