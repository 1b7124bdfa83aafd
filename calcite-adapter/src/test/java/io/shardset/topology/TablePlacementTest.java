package io.shardset.topology;

import io.shardset.execution.ShardEndpoint;
import io.shardset.model.ColumnInfo;
import io.shardset.model.ModelParser;
import io.shardset.model.PhysicalTable;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.routing.Directory;
import io.shardset.routing.KeyHasher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where a table's rows live under each version of its model file. */
class TablePlacementTest {
  /** The live models of these tests, as one process's runtime holds them. */
  private static final LiveModels MODELS = new LiveModels();

  /** The upper end of the hash space. */
  private static final long TOP = 4294967296L;

  @TempDir Path folder;

  /**
   * A model file of schema S over shards s0, s1 and s2 (s2 holds no range yet), with hashed
   * table T (key K) and duplicated table R.
   *
   * @param shards more shard entries, after s2's
   * @param chunkMap the chunk map's entries
   * @param reshard the {@code reshard} object, or null for none
   */
  private static String model(String shards, String chunkMap, String reshard) {
    return String.format(Locale.ROOT, """
        {"version": "1.0", "defaultSchema": "S",
         "schemas": [{"name": "S", "type": "custom",
           "factory": "io.shardset.calcite.ShardSchemaFactory",
           "operand": {
             "shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"},
                        {"name": "s1", "jdbcUrl": "jdbc:h2:mem:s1"},
                        {"name": "s2", "jdbcUrl": "jdbc:h2:mem:s2"}%s],
             "chunkMap": [%s],
             "tables": [{"name": "T", "method": "consistent-hash", "shardKey": ["K"]},
                        {"name": "R", "method": "duplicated"}]%s}}]}
        """, shards, chunkMap, reshard == null ? "" : ",\n \"reshard\": " + reshard);
  }

  /** [0, split) on s0, the rest on s1. */
  private static String split(long split) {
    return chunks(0, split, "s0") + ", " + chunks(split, TOP, "s1");
  }

  private static String chunks(long from, long to, String shard) {
    return String.format(Locale.ROOT, "{\"from\": %d, \"to\": %d, \"shard\": \"%s\"}", from,
        to, shard);
  }

  private static LiveModel open(Path file, String json) throws IOException {
    return ModelFiles.open(MODELS, file, json);
  }

  /** Writes a new version of the model file and waits until the live model has it. */
  private static void publish(Path file, String json) throws Exception {
    Files.writeString(file, json);
    MODELS.publishAndDrain(file, Duration.ofSeconds(10));
  }

  /** The tables of the live model's current version, resolved as that version's schema. */
  private static Map<String, ShardedTable> resolve(LiveModel live) {
    final LiveModel.Snapshot snapshot = live.current();
    return ShardedTableResolver.resolve(snapshot.model(),
        new LiveSource(live, snapshot.version()), new DeclaredLayouts());
  }

  /** The hash of key {@code k} of table T. */
  private static long hash(ShardedTable table, int k) {
    return KeyHasher.hash(KeyHasher.keyBytes(table.keyTypes(), List.of(k)));
  }

  @Test void tableWhoseModelCannotChangeIsPlacedAsBuilt() {
    final ShardSetModel model = ModelParser.parse("S",
        ModelFiles.operand(model("", split(1000), null)), System::getenv);
    final ShardedTable table = ShardedTableResolver.resolve(model, null, new DeclaredLayouts())
        .get("T");
    final TablePlacement placement = TablePlacement.of(table);
    final Placement asBuilt = placement.asBuilt();
    assertEquals(-1, asBuilt.version());
    assertTrue(asBuilt.isAsPlanned());
    assertSame(table.router(), asBuilt.routerOr(table.router()));
    assertNull(asBuilt.reshard());
    final IllegalStateException e = assertThrows(IllegalStateException.class,
        placement::enter);
    assertEquals("table S.T follows no model file", e.getMessage());
  }

  @Test void versionTheTableWasBuiltUnderIsAsPlanned() throws Exception {
    final LiveModel live = open(folder.resolve("model.json"), model("", split(1000), null));
    final ShardedTable table = resolve(live).get("T");
    final TablePlacement placement = TablePlacement.of(table);
    try (LiveModel.Ticket ticket = placement.enter()) {
      assertEquals(1, ticket.snapshot().version());
      final Placement read = placement.forReading(ticket.snapshot(), List.of(table));
      assertEquals(1, read.version());
      assertTrue(read.isAsPlanned());
      assertNull(read.reshard());
      assertSame(table.router(), placement.forWriting(ticket.snapshot())
          .routerOr(table.router()));
    }
  }

  @Test void newerChunkMapRoutesAsTheTableNumbersItsShards() throws Exception {
    final Path file = folder.resolve("model.json");
    final LiveModel live = open(file, model("", split(1000), null));
    final ShardedTable table = resolve(live).get("T");
    publish(file, model("", chunks(0, TOP, "s1"), null));
    final TablePlacement placement = TablePlacement.of(table);
    try (LiveModel.Ticket ticket = placement.enter()) {
      assertEquals(2, ticket.snapshot().version());
      final Placement read = placement.forReading(ticket.snapshot(), List.of(table));
      assertNotNull(read.router());
      assertNull(read.error());
      for (int k = 0; k < 20; k++) {
        assertEquals(table.shardIndex("s1"), read.router().shardOf(List.of(k)).getAsInt());
      }
      final Placement write = placement.forWriting(ticket.snapshot());
      assertEquals(table.shardIndex("s1"),
          write.routerOr(table.router()).shardOf(List.of(7)).getAsInt());
    }
  }

  @Test void sourcesReadMoveTablesOfCarriedTablesDuringTheCopy() throws Exception {
    final Path file = folder.resolve("model.json");
    final LiveModel live = open(file, model("", split(2147483648L), null));
    final Map<String, ShardedTable> tables = resolve(live);
    final ShardedTable table = tables.get("T");
    publish(file, model("", chunks(0, 1073741824L, "s0") + ", "
        + chunks(1073741824L, 2147483648L, "s0") + ", " + chunks(2147483648L, TOP, "s1"), """
        {"shardspace": "default", "phase": "copy",
         "moves": [{"from": 1073741824, "to": 2147483648, "source": "s0", "target": "s2"}]}
        """));
    final TablePlacement placement = TablePlacement.of(table);
    try (LiveModel.Ticket ticket = placement.enter()) {
      final Placement read = placement.forReading(ticket.snapshot(), List.of(table));
      final BitSet readers = new BitSet();
      readers.set(table.shardIndex("s0"));
      assertEquals(readers, read.moveReaders());
      assertEquals("default", read.reshard().shardspace());
      // A statement that reads no carried table reads no move table.
      final ShardedTable duplicated = tables.get("R");
      assertEquals(new BitSet(), TablePlacement.of(duplicated)
          .forReading(ticket.snapshot(), List.of(duplicated)).moveReaders());
    }
  }

  @Test void scanPlacementIsKeptForItsVersion() throws Exception {
    final LiveModel live = open(folder.resolve("model.json"), model("", split(1000), null));
    final ShardedTable table = resolve(live).get("T");
    final ScanPlacement scan = new ScanPlacement(table, List.of(table));
    try (LiveModel.Ticket ticket = scan.enter()) {
      assertSame(scan.of(ticket.snapshot()), scan.of(ticket.snapshot()));
    }
  }

  @Test void shardTheConnectionDoesNotKnowIsAnError() throws Exception {
    final Path file = folder.resolve("model.json");
    final LiveModel live = open(file, model("", split(1000), null));
    final ShardedTable table = resolve(live).get("T");
    publish(file, model(", {\"name\": \"s3\", \"jdbcUrl\": \"jdbc:h2:mem:s3\"}",
        chunks(0, 1000, "s0") + ", " + chunks(1000, TOP, "s3"), null));
    final TablePlacement placement = TablePlacement.of(table);
    try (LiveModel.Ticket ticket = placement.enter()) {
      final Placement read = placement.forReading(ticket.snapshot(), List.of(table));
      final String error = "the model of schema 'S' now places rows of table 'T' on shard"
          + " 's3', which this statement's plan does not know; prepare it again";
      assertEquals(error, read.error());
      assertEquals(error, assertThrows(IllegalStateException.class,
          () -> read.routerOr(table.router())).getMessage());
      // A writer refuses a table whose shards changed since it started.
      assertEquals("table S.T: the model now places it on shards [s0, s1, s2, s3], not"
          + " [s0, s1, s2] as when this loader started; start the load again",
          assertThrows(IllegalStateException.class,
              () -> placement.forWriting(ticket.snapshot())).getMessage());
    }
  }

  @Test void tableTheModelNoLongerHasIsAnError() throws Exception {
    final Path file = folder.resolve("model.json");
    final LiveModel live = open(file, model("", split(1000), null));
    final ShardedTable table = resolve(live).get("T");
    publish(file, model("", split(2000), null).replace("\"name\": \"T\"", "\"name\": \"U\""));
    final TablePlacement placement = TablePlacement.of(table);
    try (LiveModel.Ticket ticket = placement.enter()) {
      assertEquals("the model of schema 'S' no longer has table 'T'; prepare the statement"
          + " again",
          placement.forReading(ticket.snapshot(), List.of(table)).error());
      assertEquals("the model of schema 'S' no longer has table 'T'; prepare the statement"
          + " again",
          assertThrows(IllegalStateException.class,
              () -> placement.forWriting(ticket.snapshot())).getMessage());
    }
  }

  @Test void writerMustLeaveMovingRangesAlone() throws Exception {
    final Path file = folder.resolve("model.json");
    final LiveModel live = open(file, model("", split(2147483648L), null));
    final ShardedTable table = resolve(live).get("T");
    int moving = 0;
    while (hash(table, moving) >= 2147483648L) {
      moving++;
    }
    final long h = hash(table, moving);
    int staying = 0;
    while (hash(table, staying) >= 2147483648L || hash(table, staying) == h) {
      staying++;
    }
    publish(file, model("", chunks(0, h, "s0") + ", " + chunks(h, h + 1, "s0") + ", "
        + chunks(h + 1, 2147483648L, "s0") + ", " + chunks(2147483648L, TOP, "s1"),
        String.format(Locale.ROOT, """
            {"shardspace": "default", "phase": "copy",
             "moves": [{"from": %d, "to": %d, "source": "s0", "target": "s2"}]}
            """, h, h + 1)));
    final TablePlacement placement = TablePlacement.of(table);
    try (LiveModel.Ticket ticket = placement.enter()) {
      final Placement write = placement.forWriting(ticket.snapshot());
      final int s0 = table.shardIndex("s0");
      assertEquals(s0, write.routerOr(table.router()).shardOf(List.of(moving)).getAsInt());
      assertEquals(new ReshardSpec.MoveSpec(h, h + 1, "s0", "s2"),
          placement.movingRangeOf(write, new Object[] {moving, "v"}, s0));
      assertNull(placement.movingRangeOf(write, new Object[] {staying, "v"},
          write.routerOr(table.router()).shardOf(List.of(staying)).getAsInt()));
      // The move involves s0 and s2 only: a row routed to s1 is not in its range.
      assertNull(placement.movingRangeOf(write, new Object[] {moving, "v"},
          table.shardIndex("s1")));
    }
  }

  /** Every table as columns K INTEGER NOT NULL, V VARCHAR(20) on every shard. */
  private static final class DeclaredLayouts implements ShardLayouts {
    @Override public ShardEndpoint endpoint(ShardSpec shard) {
      return new ShardEndpoint() {
        @Override public String name() {
          return shard.name();
        }

        @Override public Connection connect() throws SQLException {
          throw new SQLException("shard " + shard.name() + " is declared only");
        }

        @Override public String redact(String message) {
          return message;
        }
      };
    }

    @Override public ShardColumns columns(ShardSpec shard, TableSpec table) {
      return new ShardColumns(new PhysicalTable(shard.name(), null, null, table.name(),
          List.of("K", "V")), List.of(
              new ColumnInfo("K", Types.INTEGER, "INTEGER", 10, 0, false),
              new ColumnInfo("V", Types.VARCHAR, "VARCHAR", 20, 0, true)));
    }

    @Override public List<ShardColumns> subpartitionColumns(ShardSpec shard, TableSpec table) {
      throw new UnsupportedOperationException("no subpartitions");
    }

    @Override public IdentifierQuoting quoting(ShardSpec shard) {
      return IdentifierQuoting.DOUBLE_QUOTES;
    }

    @Override public Directory directory(TableSpec table) {
      return null;
    }

    @Override public void close() {
    }
  }
}
