package io.shardset.reshard;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardSetRuntime;
import io.shardset.model.ShardSetModel;
import io.shardset.testing.LongTest;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Resharding a table family on PostgreSQL shards while it is queried (as
 * {@link ReshardOnlineTest} does on H2), checking by PostgreSQL's own row versions
 * ({@code ctid}, {@code xmin}) that no row staying on its shard was updated, deleted or
 * written again.
 */
@LongTest
class PostgresReshardOnlineTest {
  private static final String SCHEMA = FamilyShards.SCHEMA;
  /** The hashed tables and the column that tells their rows apart. */
  private static final Map<String, String> HASHED =
      Map.of("CUSTOMERS", "CUSTOMER_ID", "ORDERS", "ORDER_ID");

  @TempDir Path folder;

  private List<String> databases = List.of();
  private FamilyData family;

  /** A row of a hashed table. */
  private record RowId(String table, long key) {
  }

  /** Where a row is, the key it routes by, and PostgreSQL's version of it there. */
  private record RowVersion(String shard, long customerId, String ctid, String xmin) {
  }

  /** What a move did: the model after it, the row versions before and after, who left. */
  private record Moved(ShardSetModel end, Map<RowId, RowVersion> before,
      Map<RowId, RowVersion> after, Set<RowId> left) {
  }

  @AfterEach void dropDatabases() throws SQLException {
    if (family != null) {
      family.close();
    }
    if (!databases.isEmpty()) {
      PostgresServer.drop(databases);
    }
  }

  @Test void aFifthShardTakesAFifthOnline() throws Exception {
    final Moved moved = moveWhileReading("reshard_pg_online_add", 10_000, 90_000, 4,
        data -> new Operation.AddShard("s4", data.shard("s4"), null));

    final double fraction = moved.left().size() / (double) family.rows();
    assertTrue(Math.abs(fraction - 0.2) < 0.02, "moved " + fraction + " of the rows");
    assertTrue(moved.left().stream()
        .allMatch(row -> moved.after().get(row).shard().equals("s4")), "rows moved only to s4");
  }

  @Test void aShardLeavesOnline() throws Exception {
    final Moved moved = moveWhileReading("reshard_pg_online_remove", 4_000, 16_000, 5,
        data -> new Operation.RemoveShard("s2"));

    final Set<RowId> onS2 = new HashSet<>();
    moved.before().forEach((row, version) -> {
      if (version.shard().equals("s2")) {
        onS2.add(row);
      }
    });
    assertEquals(onS2, moved.left(), "exactly the rows of s2 left their shard");
    final double fraction = moved.left().size() / (double) family.rows();
    assertTrue(Math.abs(fraction - 0.2) < 0.02, "moved " + fraction + " of the rows");
    assertTrue(moved.end().shards().stream().noneMatch(s -> s.name().equals("s2")), "s2 left");
  }

  /**
   * Creates six databases (s0..s4 and the oracle; skips the test without PostgreSQL), loads
   * the family on the first {@code shards} of them, and runs an operation while the family is
   * read (see {@link MoveWhileReading}); checks the answers after it, and by the row versions
   * before and after it that only leaving rows changed.
   */
  private Moved moveWhileReading(String prefix, int customers, int orders, int shards,
      Function<FamilyData, Operation> operation) throws Exception {
    PostgresServer.require();
    databases = PostgresServer.createDatabases(prefix, 6);
    family = new FamilyData(folder, FamilyShards.postgres(databases), customers, orders);
    final Path model = family.writeModel(shards);
    final Map<String, String> expected = family.load(model, shards);
    final ShardSetModel start = ModelFile.read(model).model(SCHEMA);
    final Map<RowId, RowVersion> before = versions(shards);

    MoveWhileReading.apply(model, ReshardPlanner.plan(start, operation.apply(family)),
        expected);

    final ShardSetModel end = ModelFile.read(model).model(SCHEMA);
    final Map<RowId, RowVersion> after = versions(5);
    final Set<RowId> left = assertOnlyLeavingRowsChanged(start, end, before, after);
    try (Connection c = FamilyData.connect(model)) {
      family.assertAnswersUnsharded(c);
    }
    return new Moved(end, before, after, left);
  }

  /** Every row of the hashed tables on shards s0..s{shards - 1}, with its row version. */
  private Map<RowId, RowVersion> versions(int shards) throws SQLException {
    final Map<RowId, RowVersion> versions = new HashMap<>();
    for (int i = 0; i < shards; i++) {
      final String shard = "s" + i;
      try (Connection c = family.connect(shard); Statement s = c.createStatement()) {
        for (Map.Entry<String, String> table : HASHED.entrySet()) {
          try (ResultSet rs = s.executeQuery("SELECT " + table.getValue()
              + ", CUSTOMER_ID, ctid::text, xmin::text FROM " + table.getKey())) {
            while (rs.next()) {
              final RowId row = new RowId(table.getKey(), rs.getLong(1));
              final RowVersion previous = versions.put(row,
                  new RowVersion(shard, rs.getLong(2), rs.getString(3), rs.getString(4)));
              assertEquals(null, previous, row + " is on " + previous + " and " + shard);
            }
          }
        }
      }
    }
    return versions;
  }

  /**
   * Checks that every row sits where the model after the move routes it, that the rows that
   * left their shard are exactly those whose owner changed, and that every other row still
   * has the row version it had before (an UPDATE, or a DELETE and INSERT, would change it);
   * returns the rows that left.
   */
  private static Set<RowId> assertOnlyLeavingRowsChanged(ShardSetModel start,
      ShardSetModel end, Map<RowId, RowVersion> before, Map<RowId, RowVersion> after) {
    assertEquals(before.keySet(), after.keySet(), "the rows before and after the move");
    final Map<String, RowOwners> ownersBefore = owners(start);
    final Map<String, RowOwners> ownersAfter = owners(end);
    final Set<RowId> left = new HashSet<>();
    final Set<RowId> ownerChanged = new HashSet<>();
    final List<String> misplaced = new ArrayList<>();
    final List<String> touched = new ArrayList<>();
    before.forEach((row, was) -> {
      final List<Long> key = List.of(was.customerId());
      final String owner = ownersAfter.get(row.table()).ownerOf(key);
      final RowVersion now = after.get(row);
      if (!ownersBefore.get(row.table()).ownerOf(key).equals(owner)) {
        ownerChanged.add(row);
      }
      if (!now.shard().equals(owner)) {
        misplaced.add(row + " on " + now.shard() + ", owner " + owner);
      }
      if (!now.shard().equals(was.shard())) {
        left.add(row);
      } else if (!now.equals(was)) {
        touched.add(row + ": " + was + " became " + now);
      }
    });
    assertEquals(List.of(), first(misplaced), misplaced.size() + " rows misplaced");
    assertEquals(List.of(), first(touched), touched.size() + " rows that stayed were touched");
    final Set<RowId> wrong = new HashSet<>(left);
    wrong.addAll(ownerChanged);
    wrong.removeIf(row -> left.contains(row) && ownerChanged.contains(row));
    assertEquals(Set.of(), wrong.size() > 20 ? Set.of(wrong.size() + " rows") : wrong,
        "rows that left although their owner stayed, or stayed although it changed");
    return left;
  }

  private static Map<String, RowOwners> owners(ShardSetModel model) {
    final ShardSchema schema = ShardSetRuntime.get().schema(model);
    final Map<String, RowOwners> owners = new HashMap<>();
    HASHED.keySet().forEach(table ->
        owners.put(table, RowOwners.of(schema.table(table).sharded(), model)));
    return owners;
  }

  private static List<String> first(List<String> lines) {
    return lines.subList(0, Math.min(5, lines.size()));
  }
}
