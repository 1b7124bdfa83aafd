package io.shardset.cli;

import io.shardset.execution.Secrets;
import io.shardset.model.ShardSpec;
import io.shardset.reshard.ModelFile;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The secrets of a model file's shards (passwords, and passwords inside JDBC URLs), masked in
 * the errors the loader and the resharding commands print, as queries mask theirs.
 */
public final class ModelSecrets {
  private ModelSecrets() {
  }

  /**
   * The secrets of every schema's shards in a model file, plus those of a shard the command
   * line names; a file or schema that cannot be read contributes what its text says.
   *
   * @param model the model file
   * @param jdbcUrl a JDBC URL from the command line, or null
   * @param password a password from the command line, or null
   */
  public static Secrets of(Path model, @Nullable String jdbcUrl, @Nullable String password) {
    final List<String> urls = new ArrayList<>();
    final List<@Nullable String> passwords = new ArrayList<>();
    if (jdbcUrl != null) {
      urls.add(jdbcUrl);
    }
    passwords.add(password);
    try {
      final ModelFile file = ModelFile.read(model);
      for (String schema : file.schemas()) {
        addSchema(file, schema, urls, passwords);
      }
    } catch (RuntimeException e) {
      // An unreadable file holds no secrets that its error could repeat.
    }
    return Secrets.of(urls, passwords);
  }

  private static void addSchema(ModelFile file, String schema, List<String> urls,
      List<@Nullable String> passwords) {
    try {
      for (ShardSpec shard : file.model(schema).shards()) {
        urls.add(shard.jdbcUrl());
        passwords.add(shard.jdbcPassword());
      }
      return;
    } catch (RuntimeException e) {
      // Not a valid ShardSet schema: mask what its shards' entries say as written.
    }
    try {
      if (file.operand(schema).get("shards") instanceof List<?> shards) {
        for (Object shard : shards) {
          if (shard instanceof Map<?, ?> entry) {
            if (entry.get("jdbcUrl") instanceof String url) {
              urls.add(url);
            }
            if (entry.get("jdbcPassword") instanceof String secret) {
              passwords.add(secret);
            }
          }
        }
      }
    } catch (RuntimeException e) {
      // A schema without an operand has no shards.
    }
  }
}
