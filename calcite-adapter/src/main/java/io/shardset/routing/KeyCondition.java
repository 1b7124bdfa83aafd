package io.shardset.routing;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * A predicate over the shard key columns that decides the target shards, with literals and query
 * parameters that are bound when it is evaluated. Immutable, so one condition can be evaluated
 * many times, from many threads, with different parameter values.
 */
public sealed interface KeyCondition {
  /**
   * The shards that can hold rows satisfying this condition.
   *
   * @param params gives the value of query parameter ?i for {@code params.apply(i)}; may be null
   * @throws IllegalArgumentException naming the value and key type when a literal or parameter
   *     value cannot be normalized to its key column's type
   */
  BitSet shards(ShardRouter router, IntFunction<Object> params);

  /** Whether evaluating needs parameter values. */
  boolean hasParams();

  /**
   * The key columns this condition fixes to finitely many values (by equality or IN), so that a
   * query under it reads only the rows of those keys: a few rows, in the common case.
   */
  BitSet fixedColumns();

  /** A predicate that says nothing about the key: every shard. */
  record Any() implements KeyCondition {
    @Override public BitSet shards(ShardRouter router, IntFunction<Object> params) {
      return ShardSets.all(router.shardCount());
    }

    @Override public boolean hasParams() {
      return false;
    }

    @Override public BitSet fixedColumns() {
      return new BitSet();
    }
  }

  /**
   * All terms hold. Restrictions and comparisons are intersected per key column and routed
   * together, so that a key of several columns can be hashed; other terms intersect shard sets.
   */
  record And(List<KeyCondition> terms) implements KeyCondition {
    public And {
      terms = List.copyOf(terms);
    }

    @Override public BitSet shards(ShardRouter router, IntFunction<Object> params) {
      return KeyConditionEvaluator.and(terms, router, params);
    }

    @Override public boolean hasParams() {
      return terms.stream().anyMatch(KeyCondition::hasParams);
    }

    @Override public BitSet fixedColumns() {
      BitSet fixed = new BitSet();
      terms.forEach(term -> fixed.or(term.fixedColumns()));
      return fixed;
    }
  }

  /** Some term holds: the union of the terms' shards. */
  record Or(List<KeyCondition> terms) implements KeyCondition {
    public Or {
      terms = List.copyOf(terms);
    }

    @Override public BitSet shards(ShardRouter router, IntFunction<Object> params) {
      BitSet shards = new BitSet(router.shardCount());
      for (KeyCondition term : terms) {
        shards.or(term.shards(router, params));
      }
      return shards;
    }

    @Override public boolean hasParams() {
      return terms.stream().anyMatch(KeyCondition::hasParams);
    }

    @Override public BitSet fixedColumns() {
      if (terms.isEmpty()) {
        return new BitSet();
      }
      BitSet fixed = terms.get(0).fixedColumns();
      terms.forEach(term -> fixed.and(term.fixedColumns()));
      return fixed;
    }
  }

  /** Key column {@code keyColumn} lies in a domain of values normalized for its type. */
  record Restrict(int keyColumn, KeyDomain domain) implements KeyCondition {
    public Restrict {
      KeyConditionEvaluator.checkNotNegative(keyColumn);
      Objects.requireNonNull(domain, "domain");
    }

    @Override public BitSet shards(ShardRouter router, IntFunction<Object> params) {
      return KeyConditionEvaluator.and(List.of(this), router, params);
    }

    @Override public boolean hasParams() {
      return false;
    }

    @Override public BitSet fixedColumns() {
      BitSet fixed = new BitSet();
      if (domain.finitePoints().isPresent()) {
        fixed.set(keyColumn);
      }
      return fixed;
    }
  }

  /**
   * Key column {@code keyColumn} compares with a literal or parameter value, normalized with the
   * column's key type. A NULL value matches nothing, as in SQL, where {@code x = NULL} is unknown.
   * Keys are routed by their normalized value, so when normalizing truncates (a timestamp finer
   * than milliseconds), {@code key < value} also reaches the shard of the truncated value.
   *
   * @param integral whether the column holds only integers (an integer type, or a decimal of
   *     scale 0), so that the values compared are narrowed to integers: {@code key > 99} is
   *     {@code key >= 100}, and {@code key = 42.5} matches no key
   */
  record Compare(int keyColumn, Op op, Operand operand, boolean integral)
      implements KeyCondition {
    public Compare {
      KeyConditionEvaluator.checkNotNegative(keyColumn);
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(operand, "operand");
    }

    /** A comparison on a column that may hold any value of its key type. */
    public Compare(int keyColumn, Op op, Operand operand) {
      this(keyColumn, op, operand, false);
    }

    @Override public BitSet shards(ShardRouter router, IntFunction<Object> params) {
      return KeyConditionEvaluator.and(List.of(this), router, params);
    }

    @Override public boolean hasParams() {
      return operand instanceof Param;
    }

    @Override public BitSet fixedColumns() {
      BitSet fixed = new BitSet();
      if (op == Op.EQ) {
        fixed.set(keyColumn);
      }
      return fixed;
    }
  }

  /** How a key column compares with a value. */
  enum Op { EQ, LT, LE, GT, GE }

  /** The value a key column is compared with. */
  sealed interface Operand permits Literal, Param {
  }

  /** A value known when the condition is built, normalized with the key type when evaluated. */
  record Literal(Object value) implements Operand {
  }

  /** Query parameter ?index, whose value is supplied at each evaluation. */
  record Param(int index) implements Operand {
    public Param {
      if (index < 0) {
        throw new IllegalArgumentException("parameter index must not be negative, got " + index);
      }
    }
  }

  static KeyCondition any() {
    return new Any();
  }

  static KeyCondition and(KeyCondition... terms) {
    return new And(List.of(terms));
  }

  static KeyCondition or(KeyCondition... terms) {
    return new Or(List.of(terms));
  }

  static KeyCondition restrict(int keyColumn, KeyDomain domain) {
    return new Restrict(keyColumn, domain);
  }

  static KeyCondition compare(int keyColumn, Op op, Operand operand) {
    return new Compare(keyColumn, op, operand);
  }

  /** {@code key = literal}. */
  static KeyCondition eq(int keyColumn, Object literal) {
    return new Compare(keyColumn, Op.EQ, new Literal(literal));
  }

  /** {@code key = ?paramIndex}. */
  static KeyCondition eqParam(int keyColumn, int paramIndex) {
    return new Compare(keyColumn, Op.EQ, new Param(paramIndex));
  }

  static Operand literal(Object value) {
    return new Literal(value);
  }

  static Operand param(int index) {
    return new Param(index);
  }
}
