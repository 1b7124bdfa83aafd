package io.shardset.calcite.federation;

import io.shardset.calcite.jdbc.ShardSetSqlDialect;

import org.apache.calcite.adapter.jdbc.JdbcSchema;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaFactory;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Schemas;

import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * A federating Calcite's schema over a ShardSet server (a {@code custom} schema with the
 * operand of a {@code jdbc} one: {@code jdbcUrl}, {@code jdbcDriver}, {@code jdbcUser},
 * {@code jdbcPassword}, {@code jdbcCatalog}, {@code jdbcSchema}): Calcite's JDBC schema in
 * {@link ShardSetSqlDialect}, whose convention also sends window functions to the server.
 * Calcite's own JDBC rules cannot (CALCITE-7616, see {@link ShardSetSqlDialect}), so its
 * dialect says it has none and {@link JdbcWindowRule} sends the window nodes Calcite makes.
 */
public class ShardSetFederationSchemaFactory implements SchemaFactory {
  /** The factory; Calcite may also create its own with the public constructor. */
  public static final ShardSetFederationSchemaFactory INSTANCE =
      new ShardSetFederationSchemaFactory();

  @Override public Schema create(SchemaPlus parentSchema, String name,
      Map<String, Object> operand) {
    final DataSource dataSource = JdbcSchema.dataSource(
        Objects.requireNonNull((String) operand.get("jdbcUrl"), "jdbcUrl"),
        (String) operand.get("jdbcDriver"), (String) operand.get("jdbcUser"),
        (String) operand.get("jdbcPassword"));
    final Expression expression =
        Schemas.subSchemaExpression(parentSchema, name, JdbcSchema.class);
    return new JdbcSchema(dataSource, ShardSetSqlDialect.DEFAULT,
        new WindowJdbcConvention(ShardSetSqlDialect.DEFAULT, expression, name),
        (String) operand.get("jdbcCatalog"), (String) operand.get("jdbcSchema"));
  }
}
