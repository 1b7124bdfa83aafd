package io.shardset.cli.reshard;

import io.shardset.cli.ModelSecrets;
import io.shardset.model.ChunkMapSpec;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.reshard.ModelFile;
import io.shardset.reshard.ReshardPlanner;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code shardset reshard show}: each shard's hash ranges and any move in progress. */
@Command(name = "show", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Prints, per shardspace, each shard's hash ranges and share of the hash"
        + " space, and the move in progress if any. Reads only the model file.")
public final class ShowCommand implements Callable<Integer> {
  @Mixin
  private ModelOptions model;

  @Option(names = "--ranges", description = "List every hash range.")
  private boolean ranges;

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Override public Integer call() {
    final PrintWriter out = spec.commandLine().getOut();
    try {
      final ModelFile file = model.read();
      final ShardSetModel m = file.model(model.schema(file));
      final List<ChunkMapSpec> map = ReshardPlanner.explicitChunkMap(m);
      final Set<String> spaces = new LinkedHashSet<>();
      m.shards().forEach(s -> spaces.add(s.shardspace()));
      for (String space : spaces) {
        final List<ChunkMapSpec> entries = map.stream()
            .filter(e -> m.shard(e.shard()).shardspace().equals(space)).toList();
        if (entries.isEmpty()) {
          out.println("shardspace '" + space + "': no consistent-hash table places rows by"
              + " hash");
          continue;
        }
        final int shards = m.shardspace(space).size();
        out.printf(Locale.ROOT, "shardspace '%s': %d shard%s, %,d hash ranges%s%n", space,
            shards, shards == 1 ? "" : "s", entries.size(),
            m.chunkMap(space).isEmpty() ? " (default placement)" : "");
        for (ShardSpec shard : m.shardspace(space)) {
          final List<ChunkMapSpec> own =
              entries.stream().filter(e -> e.shard().equals(shard.name())).toList();
          final long width = own.stream().mapToLong(e -> e.to() - e.from()).sum();
          out.printf(Locale.ROOT, "  %s: %,d ranges, %.2f %% of the hash space%n",
              shard.name(), own.size(), width * 100.0 / ChunkMapSpec.HASH_SPACE);
        }
        if (ranges) {
          entries.forEach(e -> out.printf(Locale.ROOT, "    [%d, %d) %s%n", e.from(), e.to(),
              e.shard()));
        }
      }
      final ReshardSpec running = m.reshard();
      out.println(running == null ? "move in progress: none"
          : "move in progress: " + running.operation() + ", phase "
              + running.phase().modelName() + ", " + running.moves().size()
              + " ranges of shardspace '" + running.shardspace() + "' (run apply to finish"
              + " it)");
      out.flush();
      return 0;
    } catch (RuntimeException e) {
      spec.commandLine().getErr().println("show failed: "
          + ModelSecrets.of(model.path(), null, null).redact(e.getMessage()));
      return 1;
    }
  }
}
