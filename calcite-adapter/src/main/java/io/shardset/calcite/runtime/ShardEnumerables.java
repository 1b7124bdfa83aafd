package io.shardset.calcite.runtime;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.Types;

import java.lang.reflect.Method;

/** Entry point that generated code calls to run a shard scan. */
public final class ShardEnumerables {
  /** {@link #execute(DataContext, ShardQuery)}, for code generation. */
  public static final Method EXECUTE =
      Types.lookupMethod(ShardEnumerables.class, "execute", DataContext.class,
          ShardQuery.class);

  private ShardEnumerables() {
  }

  /** The rows of a shard scan; each enumeration is one execution against the shards. */
  public static Enumerable<Object[]> execute(DataContext root, ShardQuery query) {
    return new AbstractEnumerable<>() {
      @Override public Enumerator<Object[]> enumerator() {
        return query.open(root);
      }
    };
  }
}
