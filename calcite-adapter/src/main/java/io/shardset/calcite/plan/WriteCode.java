package io.shardset.calcite.plan;

import io.shardset.session.Sessions;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.util.BuiltInMethod;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * The generated code of a write node: its input's rows as arrays of boxed values, handed with
 * the stashed target and the runtime's sessions to a runtime method
 * {@code (DataContext, target, Sessions, Enumerable<Object[]>)} that returns the row count.
 */
final class WriteCode {
  private static final ParameterExpression ANY_ROW = Expressions.parameter(Object.class, "row");

  private WriteCode() {
  }

  /** Implements {@code modify}, whose input is {@code input}, as a call of {@code write}. */
  static <R extends TableModify & EnumerableRel, T> EnumerableRel.Result implement(
      R modify, EnumerableRel input,
      EnumerableRelImplementor implementor, Method write, T target, Class<T> targetClass,
      Sessions sessions) {
    final BlockBuilder builder = new BlockBuilder();
    final EnumerableRel.Result child = implementor.visitChild(modify, 0, input,
        EnumerableRel.Prefer.ARRAY);
    final Expression rowsIn = builder.append("child", child.block);
    final Expression rows;
    if (input instanceof EnumerableShardScan scan && scan.readsExactTimestamps()) {
      // Its rows hold values Calcite's types do not (a LocalDateTime for a TIMESTAMP), so no
      // code casts their fields: arrays go as they are, a bare value into one.
      rows = child.physType.getFormat() == JavaRowFormat.ARRAY ? rowsIn
          : builder.append("rows", Expressions.call(rowsIn, BuiltInMethod.SELECT.method,
              Expressions.lambda(Function1.class, Expressions.newArrayInit(Object.class,
                  List.of(ANY_ROW)), ANY_ROW)));
    } else {
      final ParameterExpression row = Expressions.parameter(child.physType.getJavaRowType(),
          "row");
      final List<Expression> values = new ArrayList<>();
      for (int i = 0; i < child.physType.getRowType().getFieldCount(); i++) {
        final Expression value = child.physType.fieldReference(row, i);
        values.add(Primitive.is(value.getType()) ? Expressions.box(value) : value);
      }
      rows = builder.append("rows", Expressions.call(rowsIn,
          BuiltInMethod.SELECT.method, Expressions.lambda(Function1.class,
              Expressions.newArrayInit(Object.class, values), row)));
    }
    builder.add(Expressions.return_(null, Expressions.call(write,
        implementor.getRootExpression(), implementor.stash(target, targetClass),
        implementor.stash(sessions, Sessions.class),
        rows)));
    return implementor.result(PhysTypeImpl.of(implementor.getTypeFactory(),
        modify.getRowType(), JavaRowFormat.SCALAR), builder.toBlock());
  }
}
