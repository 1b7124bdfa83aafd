package io.shardset.calcite;

import io.shardset.calcite.guard.ShardHints;

import org.apache.calcite.config.CalciteSystemProperty;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaFactory;
import org.apache.calcite.schema.SchemaPlus;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * Creates a {@link ShardSchema} from the {@code operand} of a Calcite model: the shards, and
 * per table its sharding method (see the project's model contract).
 *
 * <p>Use it in a model as {@code "factory": "io.shardset.calcite.ShardSchemaFactory"}.
 * Calcite calls it once per connection; the schemas of one model share its connection pools,
 * which the process's {@link ShardSetRuntime} holds while any of them is in use.
 */
public final class ShardSchemaFactory implements SchemaFactory {
  private static final Logger LOGGER = LoggerFactory.getLogger(ShardSchemaFactory.class);

  static {
    // ShardSet's saffron.properties makes UTF-8 Calcite's default for literals; another
    // saffron.properties earlier on the classpath, or a system property, can override it.
    final String charset = CalciteSystemProperty.DEFAULT_CHARSET.value();
    if (!"UTF-8".equals(charset)) {
      LOGGER.warn("Calcite's default character set is {}: SQL literals it cannot encode fail;"
          + " set calcite.default.charset=UTF-8, calcite.default.nationalcharset=UTF-8 and"
          + " calcite.default.collation.name=UTF-8$en_US", charset);
    }
  }

  /** Public no-argument constructor, as Calcite's model handler requires. */
  public ShardSchemaFactory() {
  }

  @Override public Schema create(SchemaPlus parentSchema, String name,
      Map<String, Object> operand) {
    // Before any statement of the connection is converted: see the method.
    ShardHints.install();
    try {
      // Calcite instantiates this class by name and hands it nothing else: the process's
      // runtime is the one place static state is reached from.
      return ShardSetRuntime.get().connect(name, operand);
    } catch (RuntimeException e) {
      // Calcite reports this as "Error instantiating JsonCustomSchema(name=...)", and many
      // clients (sqlline among them) show only that; the log carries the message that says
      // what is wrong.
      LOGGER.error(e.getMessage());
      throw e;
    }
  }
}
