package io.shardset.reshard;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardSite;
import io.shardset.calcite.ShardTable;
import io.shardset.execution.ShardException;
import io.shardset.model.MoveTables;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.model.TableSpec;

import org.apache.calcite.sql.SqlDialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * Creates and drops the move tables of a move: on every shard the move involves, for every
 * physical table of every table it carries (each subpartition table of a subpartitioned
 * one), a twin with the same columns and no keys (see {@link MoveTables}).
 */
final class MoveTableStatements {
  private MoveTableStatements() {
  }

  /** Creates each move table that does not exist yet, empty. */
  static int create(ShardSetModel model, ShardSchema schema, ReshardSpec move) {
    return run(model, schema, move, (table, twin) -> "CREATE TABLE IF NOT EXISTS " + twin
        + " AS SELECT * FROM " + table + " WHERE 1 = 0");
  }

  /** Drops each move table that exists. */
  static int drop(ShardSetModel model, ShardSchema schema, ReshardSpec move) {
    return run(model, schema, move, (table, twin) -> "DROP TABLE IF EXISTS " + twin);
  }

  /**
   * Runs one statement per move table, made from the quoted names of its table and of itself.
   *
   * @return the number of statements run
   */
  private static int run(ShardSetModel model, ShardSchema schema, ReshardSpec move,
      BiFunction<String, String, String> statement) {
    int statements = 0;
    for (TableSpec spec : model.tables()) {
      if (!move.carries(spec)) {
        continue;
      }
      final ShardTable table = schema.table(spec.name());
      for (int i = 0; i < table.shardCount(); i++) {
        final ShardSite site = table.site(i);
        if (!move.involves(site.name())) {
          continue;
        }
        final List<String> sql = new ArrayList<>();
        for (ShardSite physical : site.tables()) {
          sql.add(statement.apply(quoted(physical.dialect(), physical.qualifiedName()),
              quoted(physical.dialect(), twin(physical.qualifiedName()))));
        }
        execute(site, sql);
        statements += sql.size();
      }
    }
    return statements;
  }

  /** The move table's qualified name: the table's, with the move table's last part. */
  private static List<String> twin(List<String> qualifiedName) {
    final List<String> twin = new ArrayList<>(qualifiedName);
    final int last = twin.size() - 1;
    twin.set(last, MoveTables.name(twin.get(last)));
    return twin;
  }

  private static String quoted(SqlDialect dialect, List<String> name) {
    return name.stream().map(dialect::quoteIdentifier).collect(Collectors.joining("."));
  }

  private static void execute(ShardSite site, List<String> sql) {
    try (Connection connection = site.endpoint().connect();
         Statement s = connection.createStatement()) {
      for (String text : sql) {
        s.execute(text);
      }
    } catch (SQLException e) {
      throw new ShardException(site.name(),
          site.endpoint().redact("cannot create or drop move tables: " + e.getMessage()), e);
    }
  }
}
