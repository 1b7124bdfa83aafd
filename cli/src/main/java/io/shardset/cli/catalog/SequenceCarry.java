package io.shardset.cli.catalog;

import io.shardset.model.ShardSetModel;
import io.shardset.reshard.ModelFile;
import io.shardset.sequence.SequencePositions;
import io.shardset.transaction.LogDatabase;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * Carries a schema's global sequences over when its model moves between a model file and a
 * catalog, whose sequences keep their positions in different databases (the file's decision
 * log, the catalog): the new one then goes on from where the old one stood, and hands out no
 * value twice.
 */
final class SequenceCarry {
  private SequenceCarry() {
  }

  /** Whether a schema of a model file declares sequences. */
  static boolean hasSequences(ModelFile file, String schema) {
    return file.operand(schema).get("sequences") instanceof List<?> list && !list.isEmpty();
  }

  /**
   * Raises the sequences of {@code model} in {@code to} to where they stand in {@code from},
   * telling {@code out} of each; nothing when the model has none or both are one database.
   */
  static void carry(ShardSetModel model, @Nullable LogDatabase from, @Nullable LogDatabase to,
      PrintWriter out) throws SQLException {
    if (model.sequences().declared().isEmpty() || from == null || to == null
        || from.url().equals(to.url())) {
      return;
    }
    final Map<String, Long> positions = SequencePositions.read(from, model.schema());
    if (positions.isEmpty()) {
      return;
    }
    SequencePositions.raise(to, model.schema(), positions);
    positions.forEach((name, next) -> out.println("sequence " + model.schema() + "." + name
        + " carried over from " + from + ": it goes on from " + next));
  }
}
