package io.shardset.cli.server;

import io.shardset.execution.RowSizes;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The rows of one statement's result that the server read ahead of its client, in the order
 * the client fetches them: the first ones in memory, within the statement's and the server's
 * budgets ({@link ResultSpooling}), the rest in a temporary file of serialized rows, read back
 * front to back as the client fetches. Rows are what Avatica's frames carry (an array of
 * column values of the types its protocol sends), so a fetch answered from here is the frame
 * the result set would have given.
 *
 * <p>One statement's fetches come one after another, but the server's cleaner may close a
 * spool while a fetch reads it: every method holds the spool's lock.
 */
final class ResultSpool implements AutoCloseable {
  /** Rows written to the file between two resets of the stream's back-references. */
  private static final int RESET_EVERY = 1_000;

  private final ResultSpooling settings;
  /** What the rows of every spool of the server keep in memory, in bytes. */
  private final AtomicLong serverMemory;
  /** The first rows, in memory. */
  private final List<Object> memory = new ArrayList<>();
  private long memoryBytes;
  private long bytes;
  private long rows;
  /** The rest, in a file, while it has any. */
  private @Nullable Path file;
  private @Nullable ObjectOutputStream out;
  private long fileRows;
  /** The file read back, and the index (among the file's rows) of its next row. */
  private @Nullable ObjectInputStream in;
  private long nextFileRow;
  private boolean complete;
  private boolean closed;

  ResultSpool(ResultSpooling settings, AtomicLong serverMemory) {
    this.settings = settings;
    this.serverMemory = serverMemory;
  }

  /** Whether the spool may take more rows: its statement's limit is not reached. */
  synchronized boolean hasRoom() {
    return bytes < settings.statementLimit();
  }

  /** Adds rows read from the result, after those added before; returns how many. */
  synchronized int add(Iterable<Object> frameRows) throws IOException {
    checkOpen();
    int added = 0;
    for (Object row : frameRows) {
      added++;
      final long size = RowSizes.of(row);
      bytes += size;
      rows++;
      if (out == null && memoryBytes + size <= settings.statementMemory()
          && reserve(size)) {
        memory.add(row);
        memoryBytes += size;
        continue;
      }
      write(row);
    }
    return added;
  }

  /** Says the result has no more rows than those added. */
  synchronized void complete() throws IOException {
    complete = true;
    if (out != null) {
      out.flush();
    }
  }

  /** Whether every row of the result is here. */
  synchronized boolean isComplete() {
    return complete;
  }

  /** The number of rows here. */
  synchronized long rows() {
    return rows;
  }

  /** The bytes the rows take, as estimated. */
  synchronized long bytes() {
    return bytes;
  }

  /** Whether some rows went to a file. */
  synchronized boolean spilled() {
    return file != null;
  }

  /**
   * At most {@code max} rows from row {@code offset} (counted from the result's first row read
   * here); fewer at the end.
   */
  synchronized List<Object> read(long offset, int max) throws IOException {
    checkOpen();
    final List<Object> result = new ArrayList<>();
    long at = offset;
    while (result.size() < max && at < rows) {
      if (at < memory.size()) {
        result.add(memory.get((int) at));
      } else {
        result.add(fileRow(at - memory.size()));
      }
      at++;
    }
    return result;
  }

  private void write(Object row) throws IOException {
    if (out == null) {
      Files.createDirectories(settings.directory());
      file = Files.createTempFile(settings.directory(), "shardset-result-", ".rows");
      out = new ObjectOutputStream(new BufferedOutputStream(Files.newOutputStream(file)));
    }
    out.writeUnshared(row);
    if (++fileRows % RESET_EVERY == 0) {
      out.reset();
    }
  }

  /** The file's row {@code index}, read on from where the last read stopped. */
  private Object fileRow(long index) throws IOException {
    if (out != null) {
      out.flush();
    }
    if (in == null || index < nextFileRow) {
      closeInput();
      in = new ObjectInputStream(new BufferedInputStream(
          Files.newInputStream(Objects.requireNonNull(file, "file"))));
      nextFileRow = 0;
    }
    try {
      Object row = null;
      while (nextFileRow <= index) {
        row = in.readUnshared();
        nextFileRow++;
      }
      return Objects.requireNonNull(row, "row");
    } catch (ClassNotFoundException e) {
      throw new IOException("a spooled row could not be read back", e);
    }
  }

  private boolean reserve(long size) {
    while (true) {
      final long used = serverMemory.get();
      if (used + size > settings.serverMemory()) {
        return false;
      }
      if (serverMemory.compareAndSet(used, used + size)) {
        return true;
      }
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("the statement's result was closed");
    }
  }

  private void closeInput() throws IOException {
    if (in != null) {
      in.close();
      in = null;
    }
  }

  /** Frees the memory and deletes the file. */
  @Override public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    serverMemory.addAndGet(-memoryBytes);
    memory.clear();
    try {
      closeInput();
      if (out != null) {
        out.close();
      }
      if (file != null) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the spooled rows in " + file, e);
    }
  }
}
