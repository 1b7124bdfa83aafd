package io.shardset.model;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a lookup table's {@code directory}, filling in defaults: an H2 database next to the
 * model named after the schema, table {@code SHARD_DIRECTORY} with the shard key's name as its
 * key column and {@code SHARD_NAME} for shard names, 10,000 entries cached for 30 seconds.
 */
final class DirectoryParser {
  private static final List<String> KEYS = List.of("jdbcUrl", "jdbcUser", "jdbcPassword",
      "table", "keyColumn", "shardColumn", "cacheSize", "cacheSeconds");

  private DirectoryParser() {
  }

  static DirectorySpec parse(OperandNode table, String shardKey) {
    OperandNode directory = table.object("directory");
    if (directory == null) {
      directory = new OperandNode(Map.of(), table.location().object("directory"),
          table.placeholders());
    }
    directory.checkKeys(KEYS, Set.of());
    String url = directory.name("jdbcUrl");
    String user = directory.string("jdbcUser");
    String password = directory.string("jdbcPassword");
    if (url == null) {
      // The embedded default: an H2 file next to the model, one per schema.
      url = directory.name("jdbcUrl", "jdbc:h2:${modelDir}/"
          + table.location().schema() + "_directory");
      user = user == null ? "sa" : user;
      password = password == null ? "" : password;
    }
    Long cacheSize = directory.integer("cacheSize", 1, Integer.MAX_VALUE);
    Long cacheSeconds = directory.integer("cacheSeconds", 0, Integer.MAX_VALUE);
    return new DirectorySpec(url, user, password,
        directory.name("table", DirectorySpec.DEFAULT_TABLE),
        directory.name("keyColumn", shardKey),
        directory.name("shardColumn", DirectorySpec.DEFAULT_SHARD_COLUMN),
        cacheSize == null ? DirectorySpec.DEFAULT_CACHE_SIZE : cacheSize.intValue(),
        cacheSeconds == null ? DirectorySpec.DEFAULT_CACHE_SECONDS : cacheSeconds.intValue());
  }
}
