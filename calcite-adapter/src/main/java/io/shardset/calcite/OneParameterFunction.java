package io.shardset.calcite;

import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;
import java.util.Objects;

/**
 * A function of ShardSet's own with one parameter, whose calls Calcite's generated code makes
 * as the implementor says (a static method of an entry-point class): the schema-less
 * functions {@code SHARDSET.CANCEL} and a sequence's next value.
 */
public final class OneParameterFunction implements ImplementableFunction,
    org.apache.calcite.schema.Function {
  private final String name;
  private final SqlTypeName type;
  private final CallImplementor implementor;

  /** A function of one parameter of that name and type, called as {@code implementor} says. */
  public OneParameterFunction(String name, SqlTypeName type, CallImplementor implementor) {
    this.name = Objects.requireNonNull(name, "name");
    this.type = Objects.requireNonNull(type, "type");
    this.implementor = Objects.requireNonNull(implementor, "implementor");
  }

  @Override public List<FunctionParameter> getParameters() {
    return List.of(new FunctionParameter() {
      @Override public int getOrdinal() {
        return 0;
      }

      @Override public String getName() {
        return name;
      }

      @Override public RelDataType getType(RelDataTypeFactory typeFactory) {
        return typeFactory.createSqlType(type);
      }

      @Override public boolean isOptional() {
        return false;
      }
    });
  }

  @Override public CallImplementor getImplementor() {
    return implementor;
  }
}
