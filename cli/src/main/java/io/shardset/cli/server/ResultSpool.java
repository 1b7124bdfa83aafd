package io.shardset.cli.server;

import io.shardset.execution.RowOutput;
import io.shardset.execution.RowSizes;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The rows of one statement's result that the server read ahead of its client, in the order
 * the client fetches them: the first ones in memory, within the statement's and the server's
 * budgets ({@link ResultSpooling}), the rest in a temporary file of serialized rows, read back
 * front to back as the client fetches. Rows are what Avatica's frames carry (an array of
 * column values of the types its protocol sends), so a fetch answered from here is the frame
 * the result set would have given.
 *
 * <p>A reader thread adds the rows while the client fetches those already here: a fetch waits
 * for the rows it asks for, the end of the result, the spool's limit (past which the result
 * streams from the shards) or the reader's failure, which the fetch then reports. The server's
 * cleaner may close a spool meanwhile. Every method holds the spool's lock.
 */
final class ResultSpool implements AutoCloseable {

  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled when rows arrive, the reader ends or the spool closes. */
  private final Condition changed = lock.newCondition();
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
  private @Nullable RowOutput out;
  /** The file read back, and the index (among the file's rows) of its next row. */
  private @Nullable ObjectInputStream in;
  private long nextFileRow;
  private boolean complete;
  /** Set when the reader stopped at the limit: the rest streams from the shards. */
  private boolean stopped;
  private @Nullable Throwable failure;
  private boolean closed;

  ResultSpool(ResultSpooling settings, AtomicLong serverMemory) {
    this.settings = settings;
    this.serverMemory = serverMemory;
  }

  /** Whether the spool may take more rows: its statement's limit is not reached. */
  boolean hasRoom() {
    lock.lock();
    try {
      return bytes < settings.statementLimit();
    } finally {
      lock.unlock();
    }
  }

  /** Adds rows read from the result, after those added before; returns how many. */
  int add(Iterable<Object> frameRows) throws IOException {
    lock.lock();
    try {
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
        write(row, size);
      }
      if (out != null) {
        out.flush();
      }
      changed.signalAll();
      return added;
    } finally {
      lock.unlock();
    }
  }

  /** Says the result has no more rows than those added. */
  void complete() {
    lock.lock();
    try {
      complete = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Says the reader stopped at the spool's limit: the rest is read as the client fetches. */
  void stop() {
    lock.lock();
    try {
      stopped = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Says the reader failed: fetches past the rows here report {@code cause}. */
  void fail(Throwable cause) {
    lock.lock();
    try {
      failure = cause;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until row {@code index} is here, or the reader completed, stopped or failed, or the
   * spool closed.
   */
  void await(long index) throws InterruptedException {
    lock.lock();
    try {
      while (index >= rows && !complete && !stopped && failure == null && !closed) {
        // Bounded, and checked again: the reader always ends with one of these.
        changed.await(1, TimeUnit.SECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether the reader stopped at the limit, the rest streaming from the shards. */
  boolean isStopped() {
    lock.lock();
    try {
      return stopped;
    } finally {
      lock.unlock();
    }
  }

  /** The reader's failure, if it failed. */
  @Nullable Throwable failure() {
    lock.lock();
    try {
      return failure;
    } finally {
      lock.unlock();
    }
  }

  /** Whether every row of the result is here. */
  boolean isComplete() {
    lock.lock();
    try {
      return complete;
    } finally {
      lock.unlock();
    }
  }

  /** The number of rows here. */
  long rows() {
    lock.lock();
    try {
      return rows;
    } finally {
      lock.unlock();
    }
  }

  /** The bytes the rows take, as estimated. */
  long bytes() {
    lock.lock();
    try {
      return bytes;
    } finally {
      lock.unlock();
    }
  }

  /** Whether some rows went to a file. */
  boolean spilled() {
    lock.lock();
    try {
      return file != null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * At most {@code max} rows from row {@code offset} (counted from the result's first row read
   * here); fewer at the end.
   */
  List<Object> read(long offset, int max) throws IOException {
    lock.lock();
    try {
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
    } finally {
      lock.unlock();
    }
  }

  private void write(Object row, long size) throws IOException {
    if (out == null) {
      Files.createDirectories(settings.directory());
      file = Files.createTempFile(settings.directory(), "shardset-result-", ".rows");
      out = new RowOutput(file);
    }
    out.write(row, size);
  }

  /** The file's row {@code index}, read on from where the last read stopped. */
  private Object fileRow(long index) throws IOException {
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

  /** Whether the spool was closed (its statement closed, ran again or expired). */
  boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
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
  @Override public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      changed.signalAll();
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
    } finally {
      lock.unlock();
    }
  }
}
