package io.shardset.execution;

import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import com.google.common.collect.Iterators;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Joins rows by hashing within a memory budget (a grace hash join). The inner rows are read
 * into memory while their estimated size ({@link RowSizes}) stays within the budget, and the
 * outer rows stream past them, as Calcite's own hash join does. When the inner rows outgrow
 * the budget, both sides are written to {@value #PARTITIONS} files each ({@link RowFile}) by
 * the hash of their join key, and each pair of files is joined in memory in turn; a pair whose
 * inner rows still outgrow the budget is partitioned again with another hash. Rows with equal
 * keys always meet in the same pair, so whatever the in-memory join computes (an inner, outer,
 * semi or anti join) comes out the same, in another order. Rows whose key is null match no
 * row, so they are spread over the partitions. Rows of one key that alone outgrow the budget
 * fail, naming it, instead of running the JVM out of memory.
 */
public final class SpillingHashJoin {
  /** The files each side is split into at each level. */
  static final int PARTITIONS = 32;
  /** The fewest inner rows held in memory, whatever the budget: a tiny budget must not make
   * a file of every row. */
  static final int MIN_HELD_ROWS = 100;
  /** The most times a pair is split again before its rows are taken to share one key. */
  static final int MAX_LEVELS = 4;

  private SpillingHashJoin() {
  }

  /** The join of outer rows with inner rows held in memory, as Calcite computes it. */
  @FunctionalInterface
  public interface InMemoryJoin<O, I, R> {
    /** Joins {@code outer}, read once, with {@code inner}, whose rows are in memory. */
    Enumerable<R> join(Enumerable<O> outer, Enumerable<I> inner);
  }

  /**
   * The rows {@code join} computes of {@code outer} and {@code inner}, in at most about
   * {@code budgetBytes} of memory for the inner rows, spilling to files in
   * {@code directory} beyond it.
   *
   * @param keyHash the hash of a join key that is not null; equal keys have equal hashes
   * @param budget the budget as the error names it, "the sort memory of 64 MB" say
   */
  public static <O, I, K, R> Enumerable<R> join(Enumerable<O> outer, Enumerable<I> inner,
      Function<O, K> outerKey, Function<I, K> innerKey, ToIntFunction<K> keyHash,
      InMemoryJoin<O, I, R> join, long budgetBytes, String budget, Path directory) {
    return new AbstractEnumerable<R>() {
      @Override public Enumerator<R> enumerator() {
        return new Joined<>(new Sides<>(outerKey, innerKey, keyHash, join, budgetBytes,
            budget, directory), outer, inner);
      }
    };
  }

  /** What a join's enumerations share. */
  private record Sides<O, I, K, R>(Function<O, K> outerKey, Function<I, K> innerKey,
      ToIntFunction<K> keyHash, InMemoryJoin<O, I, R> join, long budgetBytes, String budget,
      Path directory) {
  }

  /** Files of the outer and inner rows whose keys hash alike at one level. */
  private record Pair(RowFile outer, RowFile inner, int level) {
  }

  /** The rows of one enumeration; the inner rows are read on the first {@link #moveNext}. */
  private static final class Joined<O, I, K, R> implements Enumerator<R> {
    private final Sides<O, I, K, R> sides;
    /** Where the next row whose key is null goes. */
    private int spread;
    private final Enumerable<O> outer;
    private final Enumerable<I> inner;
    private final Deque<Pair> pairs = new ArrayDeque<>();
    private @Nullable Pair joining;
    private @Nullable Enumerator<R> rows;
    private boolean started;

    Joined(Sides<O, I, K, R> sides, Enumerable<O> outer, Enumerable<I> inner) {
      this.sides = sides;
      this.outer = outer;
      this.inner = inner;
    }

    @Override public R current() {
      if (rows == null) {
        throw new NoSuchElementException();
      }
      return rows.current();
    }

    @Override public boolean moveNext() {
      if (!started) {
        started = true;
        start();
      }
      while (true) {
        if (rows != null && rows.moveNext()) {
          return true;
        }
        finishPair();
        final Pair next = pairs.pollFirst();
        if (next == null) {
          return false;
        }
        joinPair(next);
      }
    }

    /** Joins in memory if the inner rows fit the budget, or splits both sides into files. */
    private void start() {
      final List<I> held = new ArrayList<>();
      try (Enumerator<I> source = inner.enumerator()) {
        final Iterator<I> innerRows = Linq4j.enumeratorIterator(source);
        if (!holdWithinBudget(held, innerRows)) {
          split(Iterators.concat(held.iterator(), innerRows),
              Linq4j.enumeratorIterator(outer.enumerator()), 0);
          return;
        }
      }
      rows = sides.join.join(outer, Linq4j.asEnumerable(held)).enumerator();
    }

    /**
     * Adds rows to {@code held} until there are none left (true) or they outgrow the budget
     * (false, the rows after the last one held still to come).
     */
    private boolean holdWithinBudget(List<I> held, Iterator<I> source) {
      long bytes = 0;
      while (source.hasNext()) {
        final I row = source.next();
        held.add(row);
        bytes += RowSizes.of(row);
        if (bytes > sides.budgetBytes && held.size() > MIN_HELD_ROWS) {
          return false;
        }
      }
      return true;
    }

    /** Joins a pair of files in memory, or splits it again if its inner rows outgrow it. */
    private void joinPair(Pair pair) {
      joining = pair;
      final List<I> held = new ArrayList<>();
      if (!holdWithinBudget(held, pair.inner.read())) {
        if (pair.level + 1 >= MAX_LEVELS) {
          throw new IllegalStateException("cannot join above the shards within "
              + sides.budget + ": the rows of one join key take more than that");
        }
        held.clear();
        split(pair.inner.read(), pair.outer.read(), pair.level + 1);
        finishPair();
        return;
      }
      final RowFile outerRows = pair.outer;
      rows = sides.join.join(Linq4j.asEnumerable(outerRows::<O>read),
          Linq4j.asEnumerable(held)).enumerator();
    }

    /** Writes both sides to files by their keys' hash at {@code level}, as new pairs. */
    private void split(Iterator<I> innerRows, Iterator<O> outerRows, int level) {
      final List<RowFile> inners = new ArrayList<>();
      final List<RowFile> outers = new ArrayList<>();
      try {
        final String operation = "join above the shards beyond " + sides.budget;
        for (int p = 0; p < PARTITIONS; p++) {
          inners.add(RowFile.create(sides.directory, operation));
          outers.add(RowFile.create(sides.directory, operation));
          pairs.addFirst(new Pair(outers.get(p), inners.get(p), level));
        }
        while (innerRows.hasNext()) {
          final I row = innerRows.next();
          inners.get(partition(sides.innerKey.apply(row), level)).add(row);
        }
        while (outerRows.hasNext()) {
          final O row = outerRows.next();
          outers.get(partition(sides.outerKey.apply(row), level)).add(row);
        }
      } finally {
        if (outerRows instanceof AutoCloseable closeable) {
          closeQuietly(closeable);
        }
      }
    }

    /** The partition of a row's key at a level: each level mixes the hash differently. */
    private int partition(@Nullable K key, int level) {
      if (key == null) {
        spread = (spread + 1) % PARTITIONS;
        return spread;
      }
      int h = sides.keyHash.applyAsInt(key) ^ (level * 0x9E3779B9);
      h *= 0x85EBCA6B;
      h ^= h >>> 13;
      h *= 0xC2B2AE35;
      h ^= h >>> 16;
      return Math.floorMod(h, PARTITIONS);
    }

    private void finishPair() {
      if (rows != null) {
        rows.close();
        rows = null;
      }
      if (joining != null) {
        joining.outer.close();
        joining.inner.close();
        joining = null;
      }
    }

    @Override public void reset() {
      throw new UnsupportedOperationException("a joined result is read once");
    }

    @Override public void close() {
      finishPair();
      for (Pair pair : pairs) {
        pair.outer.close();
        pair.inner.close();
      }
      pairs.clear();
    }

    private static void closeQuietly(AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        // Its rows were all read.
      }
    }
  }
}
