package io.shardset.calcite;

import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;

import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaFactory;
import org.apache.calcite.schema.SchemaPlus;

import java.util.Map;

/**
 * Creates a {@link ShardSchema} from the {@code operand} of a Calcite model: the shards, and
 * per table its sharding method (see the project's model contract).
 *
 * <p>Use it in a model as {@code "factory": "io.shardset.calcite.ShardSchemaFactory"}.
 * Calcite calls it once per connection; connection pools are shared process-wide.
 */
public final class ShardSchemaFactory implements SchemaFactory {
  /** Public no-argument constructor, as Calcite's model handler requires. */
  public ShardSchemaFactory() {
  }

  @Override public Schema create(SchemaPlus parentSchema, String name,
      Map<String, Object> operand) {
    final ShardSetModel model = ModelParser.parse(name, operand, System::getenv);
    return ShardSchema.create(model);
  }
}
