package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Rows kept in a temporary file by an operation that ran out of its memory budget (a sort's
 * run, a partition of a join): written once, then read back in their order as often as asked.
 * Rows are serialized with Java serialization: the values Calcite's enumerable code carries
 * (numbers, strings, byte strings, dates as numbers, arrays and lists of them) all are; a row
 * may be null. {@link #close} deletes the file; {@link SpillFiles} names it, and deletes those
 * of processes killed before they could.
 */
public final class RowFile implements Closeable {
  private final Path path;
  private final String operation;
  private final List<ObjectInputStream> readers = new ArrayList<>();
  private @Nullable RowOutput out;
  private long rows;

  private RowFile(Path path, String operation) throws IOException {
    this.path = path;
    this.operation = operation;
    this.out = new RowOutput(path);
  }

  /**
   * A new, empty file in {@code directory}.
   *
   * @param operation what spills, for errors: "cannot {operation}: ..."
   */
  public static RowFile create(Path directory, String operation) {
    try {
      final Path path = SpillFiles.create(directory);
      try {
        return new RowFile(path, operation);
      } catch (IOException e) {
        Files.deleteIfExists(path);
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot " + operation + ": writing to " + directory
          + " failed", e);
    }
  }

  /** Appends a row. */
  public void add(@Nullable Object row) {
    final RowOutput writer = out;
    if (writer == null) {
      throw new IllegalStateException("rows are added before they are read");
    }
    try {
      writer.write(row, RowSizes.of(row));
      rows++;
    } catch (NotSerializableException e) {
      throw new IllegalStateException("cannot " + operation + ": a value of class "
          + e.getMessage() + " cannot be written to a file", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot " + operation + ": writing to " + path
          + " failed", e);
    }
  }

  /** The rows written. */
  public long rows() {
    return rows;
  }

  /** The rows in the order they were written; writing ends at the first read. */
  public <T> Iterator<T> read() {
    finishWriting();
    final ObjectInputStream in;
    try {
      in = new ObjectInputStream(new BufferedInputStream(Files.newInputStream(path)));
      readers.add(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot " + operation + ": reading " + path
          + " failed", e);
    }
    final long count = rows;
    return new Iterator<T>() {
      private long read;

      @Override public boolean hasNext() {
        return read < count;
      }

      @SuppressWarnings("unchecked")
      @Override public T next() {
        if (read >= count) {
          throw new NoSuchElementException();
        }
        read++;
        try {
          return (T) in.readUnshared();
        } catch (IOException | ClassNotFoundException e) {
          throw new IllegalStateException("cannot " + operation + ": reading " + path
              + " failed", e);
        }
      }
    };
  }

  private void finishWriting() {
    final RowOutput writer = out;
    if (writer != null) {
      try {
        writer.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot " + operation + ": writing to " + path
            + " failed", e);
      } finally {
        out = null;
      }
    }
  }

  /** Closes the readers and deletes the file. */
  @Override public void close() {
    try {
      finishWriting();
    } catch (UncheckedIOException e) {
      // The file goes all the same.
    }
    for (ObjectInputStream in : readers) {
      try {
        in.close();
      } catch (IOException e) {
        // Its file is deleted all the same.
      }
    }
    readers.clear();
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the rows in " + path, e);
    }
  }
}
