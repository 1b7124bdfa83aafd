package io.shardset.calcite;

import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;
import io.shardset.topology.LiveModel;
import io.shardset.topology.LiveSource;

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
 * Calcite calls it once per connection; connection pools are shared process-wide.
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
    try {
      final ShardSetModel initial = ModelParser.parse(name, operand, System::getenv);
      final LiveModel live = LiveModel.of(name, operand, initial);
      if (live == null) {
        return ShardSchema.create(initial);
      }
      // The file may have changed since Calcite read it: build from what it says now.
      final LiveModel.Snapshot snapshot = live.current();
      return ShardSchema.create(snapshot.model(),
          new LiveSource(live, snapshot.version()));
    } catch (RuntimeException e) {
      // Calcite reports this as "Error instantiating JsonCustomSchema(name=...)", and many
      // clients (sqlline among them) show only that; the log carries the message that says
      // what is wrong.
      LOGGER.error(e.getMessage());
      throw e;
    }
  }
}
