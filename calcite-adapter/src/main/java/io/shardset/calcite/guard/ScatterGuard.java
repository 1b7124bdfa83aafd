package io.shardset.calcite.guard;

import io.shardset.model.ScatterLimit;
import io.shardset.model.ScatterMode;
import io.shardset.session.SessionOwner;
import io.shardset.session.ShardSession;

import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The scatter guardrail of one scan (or pushed write): the limits of the sharded tables it
 * reads, checked against the number of shards each execution reaches before any is asked. A
 * connection's setting ({@link ConnectionScatter}) replaces the model's; the hint
 * {@code SCATTER} lifts both.
 *
 * <p>Shared by the executions of a plan, like the rest of it. A warning is logged once per
 * statement shape and table ({@link ScatterWarnings}); a plan that logged it, or found it
 * logged, does not ask again.
 */
public final class ScatterGuard {
  private static final Logger LOG = LoggerFactory.getLogger(ScatterGuard.class);

  /** A scan with nothing to guard. */
  public static final ScatterGuard NONE = new ScatterGuard(List.of(), false);

  /**
   * A sharded table a scan reads.
   *
   * @param name the table's qualified name
   * @param limit the model's limit of the table
   * @param shardCount the number of the table's shards
   * @param shardKey the table's shard key columns, for the advice of a message
   * @param warnings the statement shapes the table's warning was logged for
   */
  public record GuardedTable(String name, ScatterLimit limit, int shardCount,
      List<String> shardKey, ScatterWarnings warnings) {
    public GuardedTable {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(limit, "limit");
      shardKey = List.copyOf(shardKey);
      Objects.requireNonNull(warnings, "warnings");
    }
  }

  private final List<GuardedTable> tables;
  private final boolean allowedByHint;
  private final AtomicBoolean warned = new AtomicBoolean();

  /**
   * Creates a guard.
   *
   * @param tables the sharded (not duplicated) tables the scan reads
   * @param allowedByHint whether the statement's {@code SCATTER} hint allows any reach
   */
  public ScatterGuard(List<GuardedTable> tables, boolean allowedByHint) {
    this.tables = List.copyOf(tables);
    this.allowedByHint = allowedByHint;
  }

  /**
   * Checks an execution that reaches {@code reached} shards: throws if a limit denies it,
   * logs once per plan if a limit warns of it.
   *
   * @param root the execution's context, whose connection may set its own limit
   * @param sql what the shards are sent, for the warning
   * @throws StatementRefusedException naming the table, the reach and how to allow it
   */
  public void check(int reached, DataContext root, Supplier<String> sql) {
    // One shard never exceeds a limit (maxShards is at least 1): point queries stop here.
    if (reached <= 1 || allowedByHint || tables.isEmpty()) {
      return;
    }
    apply(reached, ConnectionScatter.limit(properties(root)), sql,
        root.getQueryProvider() instanceof SessionOwner owner ? owner.session() : null);
  }

  /**
   * Throws if a limit denies reaching {@code reached} shards; a limit that warns waits for the
   * execution.
   *
   * @param connection the connection's own limit, or null
   */
  public void refuseOnly(int reached, @Nullable ScatterLimit connection) {
    apply(reached, connection, null, null);
  }

  /**
   * Applies the limits.
   *
   * @param sql what the shards are sent, for the log; null to check denials only
   * @param session the session to give a warning to for its client, or null
   */
  private void apply(int reached, @Nullable ScatterLimit connection,
      @Nullable Supplier<String> sql, @Nullable ShardSession session) {
    if (reached <= 1 || allowedByHint) {
      return;
    }
    // Every table's denial first: a table that only warns must not hide one that denies.
    for (GuardedTable table : tables) {
      final ScatterLimit limit = connection == null ? table.limit() : connection;
      if (limit.mode() == ScatterMode.DENY && limit.exceededBy(reached, table.shardCount())) {
        throw new StatementRefusedException("scatter denied: " + why(table, limit, reached)
            + "; add a condition on its shard key (" + String.join(", ", table.shardKey())
            + "), or allow it with the hint /*+ SCATTER */",
            StatementRefusedException.LIMIT_EXCEEDED);
      }
    }
    if (sql == null || warned.get() && session == null) {
      return;
    }
    String text = null;
    for (GuardedTable table : tables) {
      final ScatterLimit limit = connection == null ? table.limit() : connection;
      if (limit.mode() == ScatterMode.WARN && limit.exceededBy(reached, table.shardCount())) {
        // The client hears of every execution (a PostgreSQL client as a notice); the log,
        // once per statement shape.
        if (session != null) {
          session.warn("scatter: " + why(table, limit, reached));
        }
        if (warned.get()) {
          continue;
        }
        text = text == null ? LiteralMask.mask(sql.get()) : text;
        if (table.warnings().first(text)) {
          LOG.warn("scatter: {} (logged once for this statement); the shards are sent: {}",
              why(table, limit, reached), text);
        }
      }
    }
    if (text != null) {
      // This plan has logged its warnings, or found them logged: it asks no more.
      warned.set(true);
    }
  }

  private static String why(GuardedTable table, ScatterLimit limit, int reached) {
    final String setting = "the scatter setting of " + limit.source();
    return limit.maxShards() > 0
        ? "the statement reads " + table.name() + " on " + reached + " of its "
            + table.shardCount() + " shards, more than " + setting + " allows (maxShards "
            + limit.maxShards() + ")"
        : "the statement reads " + table.name() + " on all " + reached + " of its shards, and "
            + setting + " is " + limit.mode().modelName();
  }

  private static @Nullable Properties properties(DataContext root) {
    return root.getQueryProvider() instanceof CalciteConnection connection
        ? connection.getProperties() : null;
  }
}
