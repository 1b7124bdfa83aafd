package io.shardset.routing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntFunction;

/** Evaluates the key-column terms of a {@link KeyCondition} into domains and shard sets. */
final class KeyConditionEvaluator {
  private KeyConditionEvaluator() {
  }

  /**
   * The shards of a conjunction: its restrictions and comparisons narrow one domain per key
   * column, which the router sees at once; the other terms' shard sets are intersected with that.
   */
  static BitSet and(List<KeyCondition> terms, ShardRouter router, IntFunction<Object> params) {
    List<KeyType> keyTypes = router.keyTypes();
    if (terms.size() == 1 && keyTypes.size() == 1
        && terms.get(0) instanceof KeyCondition.Compare compare
        && compare.op() == KeyCondition.Op.EQ) {
      // A point query's one equality on a one-column key: its value goes to the router as it
      // is, without the domains below (which a routed point query would otherwise build on
      // every execution).
      checkKeyColumn(compare.keyColumn(), 1);
      Comparable<?> value = normalize(compare.operand(), keyTypes.get(0),
          value(compare.operand(), params));
      if (value == null || compare.integral() && value instanceof BigDecimal number
          && number.scale() > 0) {
        // NULL equals nothing, and an integer column no fraction (a canonical number has a
        // positive scale only when it has a fractional part).
        return new BitSet();
      }
      return router.shardsForKey(value);
    }
    KeyDomain[] domains = new KeyDomain[keyTypes.size()];
    Arrays.fill(domains, KeyDomain.all());
    List<KeyCondition> others = new ArrayList<>();
    for (KeyCondition term : terms) {
      if (term instanceof KeyCondition.Restrict restrict) {
        narrow(domains, restrict.keyColumn(), restrict.domain());
      } else if (term instanceof KeyCondition.Compare compare) {
        KeyType type = keyTypes.get(checkKeyColumn(compare.keyColumn(), keyTypes.size()));
        KeyDomain domain = domain(compare, type, params);
        narrow(domains, compare.keyColumn(), compare.integral() ? domain.integral() : domain);
      } else {
        others.add(term);
      }
    }
    BitSet shards = router.shardsFor(List.of(domains));
    for (KeyCondition other : others) {
      shards.and(other.shards(router, params));
    }
    return shards;
  }

  static void checkNotNegative(int keyColumn) {
    if (keyColumn < 0) {
      throw new IllegalArgumentException("key column must not be negative, got " + keyColumn);
    }
  }

  private static int checkKeyColumn(int keyColumn, int keyColumns) {
    if (keyColumn >= keyColumns) {
      throw new IllegalArgumentException("key column " + keyColumn + " does not exist: the key has "
          + keyColumns + " column" + (keyColumns == 1 ? "" : "s"));
    }
    return keyColumn;
  }

  private static void narrow(KeyDomain[] domains, int keyColumn, KeyDomain domain) {
    checkKeyColumn(keyColumn, domains.length);
    domains[keyColumn] = domains[keyColumn].intersect(domain);
  }

  /** The key values that satisfy a comparison; NULL satisfies none. */
  private static KeyDomain domain(KeyCondition.Compare compare, KeyType type,
      IntFunction<Object> params) {
    Object raw = value(compare.operand(), params);
    Comparable<?> value = normalize(compare.operand(), type, raw);
    if (value == null) {
      return KeyDomain.none();
    }
    switch (compare.op()) {
    case EQ:
      return KeyDomain.point(value);
    case LT:
      // A key just below a truncated value is routed as the truncated value itself.
      return KeyDomain.range(null, false, value, type.truncates(raw));
    case LE:
      return KeyDomain.range(null, false, value, true);
    case GT:
      return KeyDomain.range(value, false, null, false);
    case GE:
      return KeyDomain.range(value, true, null, false);
    default:
      throw new AssertionError(compare.op());
    }
  }

  private static Object value(KeyCondition.Operand operand, IntFunction<Object> params) {
    return operand instanceof KeyCondition.Literal literal
        ? literal.value()
        : params.apply(((KeyCondition.Param) operand).index());
  }

  private static Comparable<?> normalize(KeyCondition.Operand operand, KeyType type, Object raw) {
    try {
      return type.normalize(raw);
    } catch (IllegalArgumentException e) {
      if (operand instanceof KeyCondition.Param param) {
        throw new IllegalArgumentException(
            "parameter ?" + param.index() + ": " + e.getMessage(), e);
      }
      throw e;
    }
  }
}
