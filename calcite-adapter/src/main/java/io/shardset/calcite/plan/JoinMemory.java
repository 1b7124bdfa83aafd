package io.shardset.calcite.plan;

import io.shardset.execution.SpillFiles;
import io.shardset.execution.SpillingHashJoin;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.EnumerableDefaults;
import org.apache.calcite.linq4j.function.EqualityComparer;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Function2;
import org.apache.calcite.linq4j.function.Predicate2;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.function.ToIntFunction;

/**
 * Calcite's hash joins, semi-joins and anti-joins, run within the statement's sort memory
 * ({@link SortMemory}) and spilling to temporary files beyond it ({@link SpillingHashJoin}).
 * The generated code of {@link EnumerableSpillingHashJoin} calls these in place of Calcite's
 * methods, with the same arguments and the statement's root last; each hashes a key as the
 * join compares it, with the join's comparer when it has one.
 */
public final class JoinMemory {
  private JoinMemory() {
  }

  /** Calcite's {@code hashJoin}, within the sort memory. */
  public static <O, I, K, R> Enumerable<R> hashJoin(Enumerable<O> outer, Enumerable<I> inner,
      Function1<O, K> outerKey, Function1<I, K> innerKey, Function2<O, I, R> result,
      @Nullable EqualityComparer<K> comparer, boolean nullsOnLeft, boolean nullsOnRight,
      @Nullable Predicate2<O, I> predicate, DataContext root) {
    return spilling(outer, inner, outerKey, innerKey, comparer, root,
        (o, i) -> EnumerableDefaults.hashJoin(o, i, outerKey, innerKey, result, comparer,
            nullsOnLeft, nullsOnRight, predicate));
  }

  /** Calcite's {@code semiJoin}, within the sort memory. */
  public static <O, I, K> Enumerable<O> semiJoin(Enumerable<O> outer, Enumerable<I> inner,
      Function1<O, K> outerKey, Function1<I, K> innerKey,
      @Nullable EqualityComparer<K> comparer, @Nullable Predicate2<O, I> predicate,
      DataContext root) {
    return spilling(outer, inner, outerKey, innerKey, comparer, root,
        (o, i) -> EnumerableDefaults.semiJoin(o, i, outerKey, innerKey, comparer, predicate));
  }

  /** Calcite's {@code antiJoin}, within the sort memory. */
  public static <O, I, K> Enumerable<O> antiJoin(Enumerable<O> outer, Enumerable<I> inner,
      Function1<O, K> outerKey, Function1<I, K> innerKey,
      @Nullable EqualityComparer<K> comparer, @Nullable Predicate2<O, I> predicate,
      DataContext root) {
    return spilling(outer, inner, outerKey, innerKey, comparer, root,
        (o, i) -> EnumerableDefaults.antiJoin(o, i, outerKey, innerKey, comparer, predicate));
  }

  private static <O, I, K, R> Enumerable<R> spilling(Enumerable<O> outer, Enumerable<I> inner,
      Function1<O, K> outerKey, Function1<I, K> innerKey,
      @Nullable EqualityComparer<K> comparer, DataContext root,
      SpillingHashJoin.InMemoryJoin<O, I, R> join) {
    final long bytes = SortMemory.bytes(root);
    final ToIntFunction<K> hash = comparer == null ? Object::hashCode : comparer::hashCode;
    return SpillingHashJoin.join(outer, inner, outerKey::apply, innerKey::apply, hash, join,
        bytes, SortMemory.describe(bytes), SpillFiles.directory());
  }
}
