package io.shardset.reshard;

import io.shardset.execution.ShardException;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.ShardingMethod;
import io.shardset.model.TableSpec;
import io.shardset.routing.KeyHasher;
import io.shardset.routing.KeyType;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Counts the rows a planned move of a shardspace's hash ranges moves, by reading the routing
 * key of every row of every carried table on every shard of the shardspace; rows stream past
 * and are never held.
 */
public final class RowCounter {
  /** Rows per fetch from a shard. */
  static final int FETCH_SIZE = 10_000;

  private final ShardSetModel before;
  private final Map<String, ShardedTable> beforeTables;
  private final ShardSetModel after;

  /**
   * A counter of the rows that move from {@code before} to {@code after}.
   *
   * @param before the model before the move
   * @param beforeTables the tables {@code before} resolves to (their layouts and shards), by
   *     name
   * @param after the model after the move, whose chunk map places the rows
   */
  public RowCounter(ShardSetModel before, Map<String, ShardedTable> beforeTables,
      ShardSetModel after) {
    this.before = Objects.requireNonNull(before, "before");
    this.beforeTables = Map.copyOf(beforeTables);
    this.after = Objects.requireNonNull(after, "after");
  }

  /**
   * Counts the rows of a shardspace's carried tables and which of them move.
   *
   * @param shardspace the shardspace whose chunk map changes
   * @param shardsBefore N for the {@code hash % N} comparison
   * @param shardsAfter N' for the comparison: N + 1 when a shard joins, N - 1 when one leaves
   * @throws ShardException if a shard cannot be read
   */
  public RowCount count(String shardspace, int shardsBefore, int shardsAfter) {
    if (shardsBefore < 1 || shardsAfter < 1) {
      throw new IllegalArgumentException("shard counts must be positive: " + shardsBefore
          + ", " + shardsAfter);
    }
    // Only carries() of the spec matters here; it needs no moves.
    final ReshardSpec move = new ReshardSpec(shardspace, ReshardSpec.Phase.COPY, List.of(),
        "count rows", null);
    final Set<String> spaceShards = before.shardspace(shardspace).stream()
        .map(ShardSpec::name).collect(Collectors.toSet());
    final Map<List<String>, long[]> pairs = new HashMap<>();
    final List<RowCount.TableCount> tables = new ArrayList<>();
    for (TableSpec spec : before.tables()) {
      if (!move.carries(spec)) {
        continue;
      }
      final Tally tally = new Tally(table(spec.name()), spaceShards,
          shardsBefore, shardsAfter, pairs);
      tally.countAll();
      tables.add(new RowCount.TableCount(spec.name(), tally.rows, tally.moved,
          tally.moduloMoved));
    }
    final List<RowCount.PairCount> pairCounts = pairs.entrySet().stream()
        .map(e -> new RowCount.PairCount(e.getKey().get(0), e.getKey().get(1),
            e.getValue()[0]))
        .sorted(Comparator.comparing(RowCount.PairCount::source)
            .thenComparing(RowCount.PairCount::target))
        .toList();
    return new RowCount(shardspace, pairCounts, tables, shardsBefore, shardsAfter);
  }

  private ShardedTable table(String name) {
    final ShardedTable table = beforeTables.get(name);
    if (table == null) {
      throw new IllegalArgumentException("no table '" + name + "'; tables are "
          + beforeTables.keySet());
    }
    return table;
  }

  /** The counts of one table. */
  private final class Tally {
    private final ShardedTable table;
    private final Set<String> spaceShards;
    private final int shardsBefore;
    private final int shardsAfter;
    private final Map<List<String>, long[]> pairs;
    private final RowOwners owners;
    /** The routing key columns hashed into the shardspace: all but a partition column. */
    private final int firstHashed;
    private final List<KeyType> hashedTypes;
    long rows;
    long moved;
    long moduloMoved;

    Tally(ShardedTable table, Set<String> spaceShards, int shardsBefore, int shardsAfter,
        Map<List<String>, long[]> pairs) {
      this.table = table;
      this.spaceShards = spaceShards;
      this.shardsBefore = shardsBefore;
      this.shardsAfter = shardsAfter;
      this.pairs = pairs;
      this.owners = RowOwners.of(table, after);
      this.firstHashed = table.spec().method() == ShardingMethod.COMPOSITE ? 1 : 0;
      this.hashedTypes = table.keyTypes().subList(firstHashed, table.keyTypes().size());
    }

    void countAll() {
      for (int i = 0; i < table.shardCount(); i++) {
        final ShardSite site = table.site(i);
        if (!spaceShards.contains(site.name())) {
          continue;
        }
        for (ShardSite physical : site.tables()) {
          try {
            countRows(site, physical);
          } catch (SQLException e) {
            throw new ShardException(site.name(), site.endpoint().redact("cannot count the"
                + " rows of table '" + table.spec().name() + "': " + e.getMessage()), e);
          }
        }
      }
    }

    private void countRows(ShardSite site, ShardSite physical) throws SQLException {
      final TablePart part = new TablePart(site.name(), physical);
      final String sql = "SELECT " + String.join(", ", part.columns(owners.keyColumns()))
          + " FROM " + part.table();
      final int keyCount = owners.keyColumns().size();
      try (Connection connection = site.endpoint().connect()) {
        final boolean autoCommit = connection.getAutoCommit();
        if (site.endpoint().streamsInTransactionOnly()) {
          connection.setAutoCommit(false);
        }
        try (Statement statement = connection.createStatement()) {
          statement.setFetchSize(FETCH_SIZE);
          try (ResultSet rs = statement.executeQuery(sql)) {
            final Object[] key = new Object[keyCount];
            while (rs.next()) {
              for (int k = 0; k < keyCount; k++) {
                key[k] = rs.getObject(k + 1);
              }
              countRow(site.name(), Arrays.asList(key));
            }
          }
        } finally {
          if (!connection.getAutoCommit()) {
            connection.rollback();
          }
          connection.setAutoCommit(autoCommit);
        }
      }
    }

    private void countRow(String shard, List<Object> key) {
      if (firstHashed > 0 && !inShardspace(key)) {
        return;
      }
      rows++;
      final String owner = owners.ownerOf(key);
      if (!owner.equals(shard)) {
        moved++;
        pairs.computeIfAbsent(List.of(shard, owner), p -> new long[1])[0]++;
      }
      final long hash = KeyHasher.hash(KeyHasher.keyBytes(hashedTypes,
          key.subList(firstHashed, key.size())));
      if (hash % shardsBefore != hash % shardsAfter) {
        moduloMoved++;
      }
    }

    /** Whether a composite table's row belongs to a partition set of the shardspace. */
    private boolean inShardspace(List<Object> key) {
      final OptionalInt shard = Objects.requireNonNull(table.router(), "router")
          .shardOf(new ArrayList<>(key));
      return shard.isPresent() && spaceShards.contains(table.shardName(shard.getAsInt()));
    }
  }
}
