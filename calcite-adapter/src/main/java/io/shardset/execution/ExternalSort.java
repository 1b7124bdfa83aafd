package io.shardset.execution;

import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Sorts rows within a memory budget: rows are gathered until their estimated size
 * ({@link RowSizes}) reaches the budget, sorted and written to a temporary file
 * ({@link RowFile}) as a run; the runs are then merged, one row of each in memory at a time.
 * A sort whose rows fit the budget stays in memory. Equal rows keep their input order, as
 * Calcite's own sort keeps it. The files are deleted when the enumerator closes.
 */
public final class ExternalSort {
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
    private final List<RowFile> runs = new ArrayList<>();
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
            writeRun(chunk.iterator());
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
      final List<RowFile> inputs = List.copyOf(runs);
      for (int from = 0; from < inputs.size(); from += FAN_IN) {
        final List<RowFile> group = inputs.subList(from, Math.min(inputs.size(), from + FAN_IN));
        // The merged run goes after every run of this pass, whose own are removed as they
        // are merged: the runs stay in input order, and close() deletes whatever is listed.
        writeRun(merge(readAll(group), List.<T>of().iterator()));
        for (RowFile done : group) {
          runs.remove(done);
          done.close();
        }
      }
    }

    private static <T> List<Iterator<T>> readAll(List<RowFile> files) {
      final List<Iterator<T>> sources = new ArrayList<>();
      for (RowFile run : files) {
        sources.add(run.read());
      }
      return sources;
    }

    /** Writes sorted rows as a run. */
    private void writeRun(Iterator<T> sorted) {
      // Listed before it is written, so that close() deletes it whatever happens.
      final RowFile run = RowFile.create(directory, "sort above the shards beyond the sort"
          + " memory budget of " + budgetBytes + " bytes");
      runs.add(run);
      while (sorted.hasNext()) {
        run.add(sorted.next());
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

    @Override public void reset() {
      throw new UnsupportedOperationException("a sorted result is read once");
    }

    @Override public void close() {
      for (RowFile run : runs) {
        run.close();
      }
      runs.clear();
    }
  }

  /** The next row of one source of the merge. */
  private record Head<T>(T row, int source) {
  }
}
