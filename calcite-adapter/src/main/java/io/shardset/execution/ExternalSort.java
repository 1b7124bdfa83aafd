package io.shardset.execution;

import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Sorts rows within a memory budget: rows are gathered until their estimated size
 * ({@link RowSizes}) reaches the budget, sorted and written to a temporary file as a run;
 * the runs are then merged, one row of each in memory at a time. A sort whose rows fit the
 * budget stays in memory. Equal rows keep their input order, as Calcite's own sort keeps it.
 *
 * <p>Rows are serialized with Java serialization: the values Calcite's enumerable code
 * carries (numbers, strings, byte arrays, dates as numbers, arrays and lists of them) all are.
 * The files are deleted when the enumerator closes.
 */
public final class ExternalSort {
  /** Rows written between two resets of a run's back-references. */
  private static final int RESET_EVERY = 1_000;
  /** The fewest rows of a run, whatever the budget: a tiny budget must not make a file of
   * every row. */
  static final int MIN_RUN_ROWS = 100;
  /** The most runs merged at once (each an open file); more are merged in passes. */
  static final int FAN_IN = 64;

  private ExternalSort() {
  }

  /**
   * The rows of {@code input} in the order of {@code comparator}, sorted in at most about
   * {@code budgetBytes} of memory, spilling to files in {@code directory} beyond it.
   */
  public static <T> Enumerable<T> sort(Enumerable<T> input, Comparator<T> comparator,
      long budgetBytes, Path directory) {
    return new AbstractEnumerable<T>() {
      @Override public Enumerator<T> enumerator() {
        return new Sorted<>(input, comparator, budgetBytes, directory);
      }
    };
  }

  /** The sorted rows of one enumeration; the sort runs on the first {@link #moveNext}. */
  private static final class Sorted<T> implements Enumerator<T> {
    private final Enumerable<T> input;
    private final Comparator<T> comparator;
    private final long budgetBytes;
    private final Path directory;
    private final List<Path> runs = new ArrayList<>();
    private final List<ObjectInputStream> readers = new ArrayList<>();
    private @Nullable Iterator<T> rows;
    private @Nullable T current;

    Sorted(Enumerable<T> input, Comparator<T> comparator, long budgetBytes, Path directory) {
      this.input = input;
      this.comparator = comparator;
      this.budgetBytes = budgetBytes;
      this.directory = directory;
    }

    @Override public T current() {
      if (rows == null) {
        throw new NoSuchElementException();
      }
      return current;
    }

    @Override public boolean moveNext() {
      if (rows == null) {
        rows = sortAll();
      }
      if (!rows.hasNext()) {
        return false;
      }
      current = rows.next();
      return true;
    }

    private Iterator<T> sortAll() {
      List<T> chunk = new ArrayList<>();
      long bytes = 0;
      try (Enumerator<T> source = input.enumerator()) {
        while (source.moveNext()) {
          final T row = source.current();
          chunk.add(row);
          bytes += RowSizes.of(row);
          if (bytes >= budgetBytes && chunk.size() >= MIN_RUN_ROWS) {
            chunk.sort(comparator);
            write(chunk);
            chunk = new ArrayList<>();
            bytes = 0;
          }
        }
      }
      chunk.sort(comparator);
      if (runs.isEmpty()) {
        return chunk.iterator();
      }
      while (runs.size() >= FAN_IN) {
        mergePass();
      }
      return merge(readAll(runs), chunk.iterator());
    }

    /**
     * Merges the runs {@value #FAN_IN} at a time into fewer, longer ones, in their order, so
     * that equal rows stay in input order; the merged runs are deleted.
     */
    private void mergePass() {
      final List<Path> inputs = List.copyOf(runs);
      for (int from = 0; from < inputs.size(); from += FAN_IN) {
        final List<Path> group = inputs.subList(from, Math.min(inputs.size(), from + FAN_IN));
        final Iterator<T> merged = merge(readAll(group), List.<T>of().iterator());
        // The merged run goes after every run of this pass, whose own are removed as they
        // are merged: the runs stay in input order, and close() deletes whatever is listed.
        writeRun(merged, count(group));
        closeReaders();
        for (Path done : group) {
          runs.remove(done);
          delete(done);
        }
      }
    }

    private List<Iterator<T>> readAll(List<Path> files) {
      final List<Iterator<T>> sources = new ArrayList<>();
      for (Path run : files) {
        sources.add(read(run));
      }
      return sources;
    }

    /** The rows of runs, from their headers. */
    private static long count(List<Path> files) {
      long rows = 0;
      for (Path run : files) {
        try (ObjectInputStream in = new ObjectInputStream(
            new BufferedInputStream(Files.newInputStream(run)))) {
          rows += in.readInt();
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read the sorted rows in " + run, e);
        }
      }
      return rows;
    }

    /** Writes a sorted chunk as a run. */
    private void write(List<T> chunk) {
      writeRun(chunk.iterator(), chunk.size());
    }

    /** Writes sorted rows as a run: their count, then the rows (a row may be null). */
    private void writeRun(Iterator<T> rows, long size) {
      if (size > Integer.MAX_VALUE) {
        throw new IllegalStateException("cannot sort above the shards: over "
            + Integer.MAX_VALUE + " rows in one run");
      }
      try {
        Files.createDirectories(directory);
        final Path run = Files.createTempFile(directory, "shardset-sort-", ".rows");
        // Known before it is written, so that close() deletes it whatever happens.
        runs.add(run);
        try (ObjectOutputStream out = new ObjectOutputStream(
            new BufferedOutputStream(Files.newOutputStream(run)))) {
          out.writeInt((int) size);
          int written = 0;
          while (rows.hasNext()) {
            out.writeUnshared(rows.next());
            if (++written % RESET_EVERY == 0) {
              out.reset();
            }
          }
        }
      } catch (NotSerializableException e) {
        throw new IllegalStateException("cannot sort above the shards beyond the sort memory"
            + " budget of " + budgetBytes + " bytes: a value of class " + e.getMessage()
            + " cannot be written to a file", e);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot sort above the shards beyond the sort memory"
            + " budget of " + budgetBytes + " bytes: writing to " + directory + " failed", e);
      }
    }

    /** Merges sorted sources and then {@code last}, earlier sources first among equal rows. */
    private Iterator<T> merge(List<Iterator<T>> runSources, Iterator<T> last) {
      final List<Iterator<T>> sources = new ArrayList<>(runSources);
      sources.add(last);
      final PriorityQueue<Head<T>> heads = new PriorityQueue<>((a, b) -> {
        final int c = comparator.compare(a.row, b.row);
        return c != 0 ? c : Integer.compare(a.source, b.source);
      });
      for (int i = 0; i < sources.size(); i++) {
        if (sources.get(i).hasNext()) {
          heads.add(new Head<>(sources.get(i).next(), i));
        }
      }
      return new Iterator<T>() {
        @Override public boolean hasNext() {
          return !heads.isEmpty();
        }

        @Override public T next() {
          final Head<T> head = heads.poll();
          if (head == null) {
            throw new NoSuchElementException();
          }
          final Iterator<T> source = sources.get(head.source);
          if (source.hasNext()) {
            heads.add(new Head<>(source.next(), head.source));
          }
          return head.row;
        }
      };
    }

    /** The rows of a run, read as they are asked for. */
    private Iterator<T> read(Path run) {
      final ObjectInputStream in;
      final int count;
      try {
        in = new ObjectInputStream(new BufferedInputStream(Files.newInputStream(run)));
        readers.add(in);
        count = in.readInt();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the sorted rows in " + run, e);
      }
      return new Iterator<T>() {
        private int read;

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
            throw new IllegalStateException("cannot read the sorted rows in " + run, e);
          }
        }
      };
    }

    @Override public void reset() {
      throw new UnsupportedOperationException("a sorted result is read once");
    }

    @Override public void close() {
      closeReaders();
      for (Path run : runs) {
        delete(run);
      }
      runs.clear();
    }

    private void closeReaders() {
      for (ObjectInputStream in : readers) {
        try {
          in.close();
        } catch (IOException e) {
          // Its file is deleted all the same.
        }
      }
      readers.clear();
    }

    private static void delete(Path run) {
      try {
        Files.deleteIfExists(run);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot delete the sorted rows in " + run, e);
      }
    }
  }

  /** The next row of one source of the merge. */
  private record Head<T>(T row, int source) {
  }
}
