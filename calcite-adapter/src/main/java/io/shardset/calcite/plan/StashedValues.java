package io.shardset.calcite.plan;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Values;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a {@code VALUES} handed to the generated code as data (stashed) rather than
 * written into it: an {@code INSERT ... VALUES} of thousands of rows, as loaders and ORMs'
 * bulk inserts send, would otherwise become a Java method larger than the 64 KB the JVM
 * allows (some three thousand rows), and take seconds to compile. The rows are made once,
 * when the write is planned ({@link ValuesRows}).
 */
final class StashedValues extends Values implements EnumerableRel {
  /** {@code Linq4j.asEnumerable(List)}. */
  private static final Method AS_ENUMERABLE =
      Types.lookupMethod(Linq4j.class, "asEnumerable", List.class);

  private StashedValues(Values values) {
    super(values.getCluster(), values.getRowType(), values.getTuples(), values.getTraitSet());
  }

  /**
   * The input of a write with its {@code VALUES} stashed: the input itself when it is a
   * {@code VALUES}, or the projection (a Calc, a Project) of one, as an INSERT that names
   * some columns has; else the input unchanged.
   */
  static RelNode in(RelNode input) {
    if (input instanceof StashedValues) {
      return input;
    }
    if (input instanceof Values values) {
      return new StashedValues(values);
    }
    if ((input instanceof Calc || input instanceof Project)
        && input.getInput(0) instanceof Values values
        && !(values instanceof StashedValues)) {
      return input.copy(input.getTraitSet(), List.of(new StashedValues(values)));
    }
    return input;
  }

  @Override public RelNode copy(org.apache.calcite.plan.RelTraitSet traitSet,
      List<RelNode> inputs) {
    return this;
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final JavaTypeFactory typeFactory = implementor.getTypeFactory();
    final PhysType physType = PhysTypeImpl.of(typeFactory, getRowType(), JavaRowFormat.ARRAY);
    final List<Object[]> rows = ValuesRows.of(this, typeFactory);
    final List<Object> records;
    if (physType.getFormat() == JavaRowFormat.SCALAR) {
      records = new ArrayList<>(rows.size());
      rows.forEach(row -> records.add(row[0]));
    } else {
      records = new ArrayList<>(rows);
    }
    final BlockBuilder builder = new BlockBuilder();
    builder.add(Expressions.return_(null,
        Expressions.call(AS_ENUMERABLE, implementor.stash(records, List.class))));
    return implementor.result(physType, builder.toBlock());
  }
}
