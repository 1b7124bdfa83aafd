package io.shardset.calcite.relations;

import io.shardset.execution.ShardRun;
import io.shardset.execution.StatementTracker;
import io.shardset.execution.TrackedStatement;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The {@value #SCHEMA} schema of a {@code jdbc:shardset:} connection, whose tables show the
 * client statements running in the process and what their shards got:
 * <ul>
 *   <li>{@code STATEMENTS}: each running statement, with its number, user, start, time so
 *   far, shards reached and rows read from them so far, and its SQL text;
 *   <li>{@code STATEMENT_SHARDS}: each shard statement of the running statements, with its
 *   shard, state, time, rows and SQL text;
 *   <li>{@code LAST_STATEMENT}: the same for the connection's last finished statement (one
 *   that read none of these tables), which shows a skewed or slow shard.
 * </ul>
 * A connection whose property {@code statements} is {@code own} sees its own user's
 * statements only; {@code SHARDSET.CANCEL(id)} ({@link StatementCancel}) stops one.
 */
public final class StatementTables extends AbstractSchema {
  /** The schema's name. */
  public static final String SCHEMA = "SHARDSET";

  private static final List<Column> STATEMENT_COLUMNS = List.of(
      new Column("ID", SqlTypeName.BIGINT), new Column("USER_NAME", SqlTypeName.VARCHAR),
      new Column("STARTED", SqlTypeName.VARCHAR), new Column("ELAPSED_MS", SqlTypeName.BIGINT),
      new Column("STATE", SqlTypeName.VARCHAR), new Column("SHARDS", SqlTypeName.VARCHAR),
      new Column("SHARD_STATEMENTS", SqlTypeName.INTEGER),
      new Column("ROWS_READ", SqlTypeName.BIGINT), new Column("SQL_TEXT", SqlTypeName.VARCHAR));

  private static final List<Column> SHARD_COLUMNS = List.of(
      new Column("STATEMENT_ID", SqlTypeName.BIGINT), new Column("SHARD", SqlTypeName.VARCHAR),
      new Column("STATE", SqlTypeName.VARCHAR), new Column("ELAPSED_MS", SqlTypeName.DOUBLE),
      new Column("ROWS_READ", SqlTypeName.BIGINT), new Column("SQL_TEXT", SqlTypeName.VARCHAR));

  private final Map<String, org.apache.calcite.schema.Table> tables;

  private StatementTables(StatementTracker tracker) {
    this.tables = Map.of(
        "STATEMENTS", new Table(tracker, STATEMENT_COLUMNS, StatementTables::statements),
        "STATEMENT_SHARDS", new Table(tracker, SHARD_COLUMNS,
            StatementTables::statementShards),
        "LAST_STATEMENT", new Table(tracker, SHARD_COLUMNS, StatementTables::lastStatement));
  }

  /**
   * Adds the schema of {@code tracker}'s statements to a connection's root schema, unless the
   * model has one of its name.
   */
  public static void register(SchemaPlus root, StatementTracker tracker) {
    if (root.subSchemas().get(SCHEMA) == null) {
      root.add(SCHEMA, new StatementTables(tracker));
    }
  }

  @Override protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
    return tables;
  }

  /** A column's name and type; every column is NOT NULL. */
  private record Column(String name, SqlTypeName type) {
  }

  /** The statement that reads a table, from its data context, or null outside one. */
  static @Nullable TrackedStatement caller(StatementTracker tracker, DataContext root) {
    return tracker.of(DataContext.Variable.CANCEL_FLAG.get(root));
  }

  private static List<Object[]> statements(StatementTracker tracker, TrackedStatement caller) {
    final List<Object[]> rows = new ArrayList<>();
    for (TrackedStatement s : tracker.running()) {
      if (caller.mayTouch(s)) {
        rows.add(new Object[] {s.id(), s.user(), s.started().toString(), s.elapsedMillis(),
            s.canceled() ? "canceling" : "running", String.join(",", s.shards()),
            s.shardStatements(), s.shardRows(), s.sql()});
      }
    }
    return rows;
  }

  private static List<Object[]> statementShards(StatementTracker tracker,
      TrackedStatement caller) {
    final List<Object[]> rows = new ArrayList<>();
    for (TrackedStatement s : tracker.running()) {
      if (caller.mayTouch(s)) {
        addShardRows(s, rows);
      }
    }
    return rows;
  }

  private static List<Object[]> lastStatement(StatementTracker tracker,
      TrackedStatement caller) {
    final List<Object[]> rows = new ArrayList<>();
    final TrackedStatement last = tracker.last(caller.session());
    if (last != null) {
      addShardRows(last, rows);
    }
    return rows;
  }

  private static void addShardRows(TrackedStatement s, List<Object[]> rows) {
    for (ShardRun run : s.shardRuns()) {
      rows.add(new Object[] {s.id(), run.shard(), run.state(),
          Math.round(run.elapsedMillis() * 1000) / 1000.0, run.rows(), run.sql()});
    }
  }

  /** One of the tables: its rows are made anew by each scan. */
  private static final class Table extends AbstractTable implements ScannableTable {
    private final StatementTracker tracker;
    private final List<Column> columns;
    private final BiFunction<StatementTracker, TrackedStatement, List<Object[]>> rows;

    Table(StatementTracker tracker, List<Column> columns,
        BiFunction<StatementTracker, TrackedStatement, List<Object[]>> rows) {
      this.tracker = tracker;
      this.columns = columns;
      this.rows = rows;
    }

    @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      final RelDataTypeFactory.Builder builder = typeFactory.builder();
      for (Column column : columns) {
        builder.add(column.name(), column.type()).nullable(false);
      }
      return builder.build();
    }

    /** A system table: BI tools that list the tables to offer skip it. */
    @Override public Schema.TableType getJdbcTableType() {
      return Schema.TableType.SYSTEM_TABLE;
    }

    @Override public Enumerable<@Nullable Object[]> scan(DataContext root) {
      final TrackedStatement caller = caller(tracker, root);
      if (caller == null) {
        // Not a tracked statement of a jdbc:shardset: connection: nothing is known of it.
        return Linq4j.emptyEnumerable();
      }
      caller.introspective();
      return Linq4j.asEnumerable(rows.apply(tracker, caller));
    }
  }
}
