package io.shardset.cli.reshard;

import io.shardset.cli.ModelSecrets;
import io.shardset.execution.Secrets;
import io.shardset.reshard.Operation;

import org.checkerframework.checker.nullness.qual.Nullable;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The operation a reshard command plans or applies, as words and the new shard's options. */
public final class OperationArgs {
  @Parameters(arity = "0..*", paramLabel = "OPERATION",
      description = {"One of:",
          "  add-shard NAME        a new shard takes an equal share of its shardspace",
          "  remove-shard NAME     a shard hands its ranges to the others and leaves",
          "  move-chunk FROM SHARD the hash range starting at FROM moves to SHARD",
          "  split-chunk FROM [AT] the range starting at FROM splits (at AT, default the"
              + " middle); no row moves"})
  private List<String> words = new ArrayList<>();

  @Option(names = "--jdbc-url", paramLabel = "URL",
      description = "add-shard: the new shard's JDBC URL (may use ${modelDir}).")
  private @Nullable String jdbcUrl;

  @Option(names = "--jdbc-user", paramLabel = "USER",
      description = "add-shard: the new shard's user.")
  private @Nullable String jdbcUser;

  @Option(names = "--jdbc-password", paramLabel = "PASSWORD",
      description = "add-shard: the new shard's password (better: ${env:NAME}).")
  private @Nullable String jdbcPassword;

  @Option(names = "--shardspace", paramLabel = "NAME",
      description = "add-shard: the shardspace the shard joins; split-chunk: the shardspace of"
          + " the range (default: the only hashed one).")
  private @Nullable String shardspace;

  /** The masking of the passwords of the model's shards and of the command line's. */
  Secrets secrets(ModelOptions model) {
    return ModelSecrets.of(model.path(), jdbcUrl, jdbcPassword);
  }

  /** Whether the command line names an operation. */
  boolean present() {
    return !words.isEmpty();
  }

  /**
   * The operation the words name.
   *
   * @throws CommandLine.ParameterException naming what is wrong with the words
   */
  Operation operation(CommandLine commandLine) {
    final String verb = words.get(0);
    final List<String> args = words.subList(1, words.size());
    if (!verb.equals("add-shard") && (jdbcUrl != null || jdbcUser != null
        || jdbcPassword != null)) {
      throw new CommandLine.ParameterException(commandLine,
          "--jdbc-url, --jdbc-user and --jdbc-password belong to add-shard");
    }
    return switch (verb) {
    case "add-shard" -> {
      arity(commandLine, verb, args, 1, 1, "NAME");
      if (jdbcUrl == null) {
        throw new CommandLine.ParameterException(commandLine,
            "add-shard needs the new shard's --jdbc-url");
      }
      final Map<String, Object> shard = new LinkedHashMap<>();
      shard.put("name", args.get(0));
      shard.put("jdbcUrl", jdbcUrl);
      putIfSet(shard, "jdbcUser", jdbcUser);
      putIfSet(shard, "jdbcPassword", jdbcPassword);
      putIfSet(shard, "shardspace", shardspace);
      yield new Operation.AddShard(args.get(0), shard, shardspace);
    }
    case "remove-shard" -> {
      arity(commandLine, verb, args, 1, 1, "NAME");
      yield new Operation.RemoveShard(args.get(0));
    }
    case "move-chunk" -> {
      arity(commandLine, verb, args, 2, 2, "FROM SHARD");
      yield new Operation.MoveRange(hash(commandLine, args.get(0)), args.get(1));
    }
    case "split-chunk" -> {
      arity(commandLine, verb, args, 1, 2, "FROM [AT]");
      yield new Operation.SplitRange(hash(commandLine, args.get(0)),
          args.size() == 2 ? hash(commandLine, args.get(1)) : null, shardspace);
    }
    default -> throw new CommandLine.ParameterException(commandLine, "unknown operation '"
        + verb + "'; operations are add-shard, remove-shard, move-chunk, split-chunk");
    };
  }

  private static void arity(CommandLine commandLine, String verb, List<String> args, int min,
      int max, String usage) {
    if (args.size() < min || args.size() > max) {
      throw new CommandLine.ParameterException(commandLine,
          "usage: " + verb + " " + usage + " (got " + args.size() + " arguments)");
    }
  }

  private static long hash(CommandLine commandLine, String word) {
    try {
      return Long.parseLong(word.replace("_", "").replace(",", ""));
    } catch (NumberFormatException e) {
      throw new CommandLine.ParameterException(commandLine,
          "'" + word + "' is not a hash: ranges are named by their first hash, as show lists"
              + " them");
    }
  }

  private static void putIfSet(Map<String, Object> map, String key, @Nullable String value) {
    if (value != null) {
      map.put(key, value);
    }
  }
}
