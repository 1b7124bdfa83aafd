package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;
import io.shardset.model.ColumnInfo;
import io.shardset.model.PhysicalTable;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.model.TestOperands;
import io.shardset.routing.Directory;
import io.shardset.topology.IdentifierQuoting;

import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.dialect.H2SqlDialect;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Which shards {@link SampledShardMetadata} reads: each table's first shard of each kind of
 * database, whose table the others of that kind take in their own catalog and schema, unless
 * the first shard's table is not in the catalog or schema its model entry names.
 */
class SampledShardMetadataTest {
  private static final List<ColumnInfo> COLUMNS = List.of(
      new ColumnInfo("K", Types.INTEGER, "INTEGER", 32, 0, false),
      new ColumnInfo("V", Types.VARCHAR, "VARCHAR", 10, 0, true));

  /** Answers for any shard, and records which it was asked about. */
  private static final class Recording implements ShardMetadata {
    final List<String> asked = new ArrayList<>();
    /** The schema each shard reports its table in, by default its model entry's. */
    String reportedSchema;

    @Override public ShardEndpoint endpoint(ShardSpec shard) {
      return new ShardEndpoint() {
        @Override public String name() {
          return shard.name();
        }

        @Override public Connection connect() {
          throw new UnsupportedOperationException();
        }

        @Override public String redact(String message) {
          return message;
        }
      };
    }

    @Override public ShardColumns columns(ShardSpec shard, TableSpec table) {
      asked.add(shard.name() + "." + table.name());
      final String schema = reportedSchema != null ? reportedSchema : shard.jdbcSchema();
      return new ShardColumns(new PhysicalTable(shard.name(), null, schema,
          table.physicalName(), List.of("k", "v")), COLUMNS, List.of("K"));
    }

    @Override public List<ShardColumns> subpartitionColumns(ShardSpec shard, TableSpec table) {
      throw new UnsupportedOperationException();
    }

    @Override public IdentifierQuoting quoting(ShardSpec shard) {
      asked.add(shard.name() + " quoting");
      return IdentifierQuoting.DOUBLE_QUOTES;
    }

    @Override public SqlDialect dialect(ShardSpec shard) {
      asked.add(shard.name() + " dialect");
      return shard.jdbcUrl().startsWith("jdbc:h2:") ? H2SqlDialect.DEFAULT
          : PostgresqlSqlDialect.DEFAULT;
    }

    @Override public @Nullable Directory directory(TableSpec table) {
      return null;
    }

    @Override public void close() {
    }
  }

  private static final ShardSetModel MODEL = TestOperands.parse("""
      {"checkShards": "onFirstUse",
       "shards": [
         {"name": "h0", "jdbcUrl": "jdbc:h2:mem:h0"},
         {"name": "p0", "jdbcUrl": "jdbc:postgresql://db/p0", "jdbcSchema": "app"},
         {"name": "h1", "jdbcUrl": "jdbc:h2:mem:h1"},
         {"name": "p1", "jdbcUrl": "jdbc:postgresql://db/p1", "jdbcSchema": "app1"}],
       "tables": [
         {"name": "T", "method": "consistent-hash", "shardKey": ["K"]},
         {"name": "U", "method": "duplicated", "shards": ["h1", "p1", "p0"]}]}""");

  @Test void eachTableIsReadOnItsFirstShardOfEachKind() {
    final Recording reader = new Recording();
    try (SampledShardMetadata metadata =
             new SampledShardMetadata(MODEL, reader, new Dialects())) {
      for (TableSpec table : MODEL.tables()) {
        for (String shard : table.shards()) {
          metadata.columns(MODEL.shard(shard), table);
        }
      }
      for (ShardSpec shard : MODEL.shards()) {
        metadata.quoting(shard);
        metadata.dialect(shard);
      }
      assertEquals(List.of("h0.T", "p0.T", "p0.U", "h1.U", "h0 quoting", "h0 dialect",
          "p0 quoting", "p0 dialect"), reader.asked);

      // Taken in the shard's own schema, with the first shard's names and columns.
      final ShardColumns taken = metadata.columns(MODEL.shard("p1"), MODEL.tables().get(0));
      assertEquals(new PhysicalTable("p1", null, "app1", "T", List.of("k", "v")),
          taken.table());
      assertSame(COLUMNS.get(1), taken.columns().get(1));
      assertEquals(List.of("K"), taken.primaryKey());
      assertSame(PostgresqlSqlDialect.DEFAULT, metadata.dialect(MODEL.shard("p1")));
    }
  }

  @Test void aShardOfAnotherDatabaseOrQuotingThanTakenFailsItsCheck() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:", "sa", "")) {
      final ShardAssumptions dialect =
          new ShardAssumptions(MODEL, MODEL.shard("h1"), new Dialects());
      dialect.dialect(PostgresqlSqlDialect.DEFAULT, MODEL.shard("p0"));
      assertEquals("Invalid ShardSet model: schema 'SALES', field 'checkShards': shard 'h1'"
          + " has database H2 2 where shard 'p0', read for it when the connection opened, has"
          + " PostgresqlSqlDialect",
          assertThrows(SQLException.class, () -> dialect.check(h2)).getMessage());

      final ShardAssumptions quoting =
          new ShardAssumptions(MODEL, MODEL.shard("h1"), new Dialects());
      quoting.quoting(new IdentifierQuoting("`"), MODEL.shard("h0"));
      assertEquals("Invalid ShardSet model: schema 'SALES', field 'checkShards': shard 'h1'"
          + " has identifier quote '\"' where shard 'h0', read for it when the connection"
          + " opened, has '`'",
          assertThrows(SQLException.class, () -> quoting.check(h2)).getMessage());

      final ShardAssumptions same = new ShardAssumptions(MODEL, MODEL.shard("h1"), new Dialects());
      same.quoting(IdentifierQuoting.DOUBLE_QUOTES, MODEL.shard("h0"));
      same.check(h2);
    }
  }

  @Test void aTableOutsideTheSchemaItsFirstShardNamesIsReadOnEveryShard() {
    final Recording reader = new Recording();
    reader.reportedSchema = "other";
    try (SampledShardMetadata metadata =
             new SampledShardMetadata(MODEL, reader, new Dialects())) {
      final TableSpec t = MODEL.tables().get(0);
      for (String shard : t.shards()) {
        metadata.columns(MODEL.shard(shard), t);
      }
      // The H2 shards name no schema: taken; the PostgreSQL ones are read each.
      assertEquals(List.of("h0.T", "p0.T", "p1.T"), reader.asked);
    }
  }
}
