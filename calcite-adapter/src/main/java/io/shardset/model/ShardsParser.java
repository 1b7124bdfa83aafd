package io.shardset.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Reads the {@code shards} of a model operand. */
final class ShardsParser {
  private static final List<String> KEYS = List.of("name", "jdbcUrl", "jdbcUser", "jdbcPassword",
      "jdbcDriver", "jdbcCatalog", "jdbcSchema", "shardspace", "poolSize", "connectTimeout",
      "statementTimeout", "socketTimeout", "tcpKeepAlive", "acquireTimeout", "lockTimeout");

  private ShardsParser() {
  }

  /** The shards in model order; at least one, with unique names. */
  static List<ShardSpec> parse(OperandNode operand) {
    List<OperandNode> entries = operand.entries("shards");
    if (entries == null) {
      throw operand.error("shards", "a value is required");
    }
    if (entries.isEmpty()) {
      throw operand.error("shards", "expected at least one shard");
    }
    Set<String> names = new HashSet<>();
    List<ShardSpec> shards = new ArrayList<>();
    for (OperandNode entry : entries) {
      OperandNode shard = entry.named(entry.location()::shard);
      shard.checkKeys(KEYS, Set.of());
      String name = shard.requiredName("name");
      if (!names.add(name)) {
        throw shard.error("name", "duplicate shard name '" + name + "'");
      }
      String shardspace = shard.name("shardspace");
      shards.add(
          new ShardSpec(name, shard.requiredName("jdbcUrl"), shard.string("jdbcUser"),
              shard.string("jdbcPassword"), shard.name("jdbcDriver"), shard.name("jdbcCatalog"),
              shard.name("jdbcSchema"),
              shardspace == null ? ShardSpec.DEFAULT_SHARDSPACE : shardspace,
              orDefault(shard.positiveInt("poolSize"), ShardSpec.DEFAULT_POOL_SIZE),
              orDefault(shard.positiveInt("connectTimeout"),
                  ShardSpec.DEFAULT_CONNECT_TIMEOUT_MILLIS),
              orDefault(shard.positiveInt("statementTimeout"), 0),
              socketTimeout(shard),
              !shard.has("tcpKeepAlive") || shard.flag("tcpKeepAlive"),
              orDefault(shard.positiveInt("acquireTimeout"),
                  ShardSpec.DEFAULT_ACQUIRE_TIMEOUT_MILLIS),
              lockTimeout(shard)));
    }
    return shards;
  }

  /** The lock timeout; 0 turns it off. */
  private static int lockTimeout(OperandNode shard) {
    Long value = shard.integer("lockTimeout", 0, Integer.MAX_VALUE);
    return value == null ? ShardSpec.DEFAULT_LOCK_TIMEOUT : value.intValue();
  }

  /** The socket timeout; 0 turns it off. */
  private static int socketTimeout(OperandNode shard) {
    Long value = shard.integer("socketTimeout", 0, Integer.MAX_VALUE);
    return value == null ? ShardSpec.DEFAULT_SOCKET_TIMEOUT_MILLIS : value.intValue();
  }

  private static int orDefault(Integer value, int defaultValue) {
    return value == null ? defaultValue : value;
  }
}
