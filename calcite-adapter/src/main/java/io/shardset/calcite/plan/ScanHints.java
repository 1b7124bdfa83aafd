package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.guard.ShardHints;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.hint.RelHint;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What a statement's hints ({@link ShardHints}) say of one scan: the shards it may reach, by
 * name, and whether it may scatter past a guardrail. Equal hints are what lets two scans join
 * inside the shards.
 *
 * @param shards the model's shard names a {@code SHARDS} hint allows (the intersection of
 *     several), or null when no hint restricts the scan
 * @param scatter whether a {@code SCATTER} hint allows any number of shards
 */
public record ScanHints(@Nullable TreeSet<String> shards, boolean scatter) {
  /** No hint. */
  public static final ScanHints NONE = new ScanHints(null, false);

  public ScanHints {
    shards = shards == null ? null : new TreeSet<>(shards);
  }

  @Override public @Nullable TreeSet<String> shards() {
    return shards == null ? null : new TreeSet<>(shards);
  }

  /**
   * The hints of a scan of {@code table}, with each shard name resolved to the model's.
   *
   * @throws io.shardset.calcite.guard.StatementRefusedException naming the names the model
   *     has no shard of
   */
  public static ScanHints of(List<RelHint> hints, ShardTable table) {
    TreeSet<String> shards = null;
    boolean scatter = false;
    for (RelHint hint : hints) {
      if (ShardHints.is(hint, ShardHints.SCATTER)) {
        scatter = true;
      } else if (ShardHints.is(hint, ShardHints.SHARDS)) {
        final TreeSet<String> named = resolve(hint.listOptions, table.modelShardNames());
        if (shards == null) {
          shards = named;
        } else {
          shards.retainAll(named);
        }
      }
    }
    return shards == null && !scatter ? NONE : new ScanHints(shards, scatter);
  }

  /** The model's names for the names a hint gives; all unknown ones in one message. */
  private static TreeSet<String> resolve(List<String> given, List<String> model) {
    final TreeSet<String> resolved = new TreeSet<>();
    final List<String> unknown = new ArrayList<>();
    for (String name : given) {
      final String found = find(name, model);
      if (found == null) {
        unknown.add(name);
      } else {
        resolved.add(found);
      }
    }
    if (!unknown.isEmpty()) {
      throw ShardHints.refused("hint " + ShardHints.SHARDS + " names "
          + (unknown.size() == 1 ? "a shard" : "shards") + " the model does not have: "
          + String.join(", ", unknown) + "; its shards are "
          + (model.size() <= 16 ? String.join(", ", model)
              : String.join(", ", model.subList(0, 16)) + ", ... (" + model.size() + ")"));
    }
    return resolved;
  }

  /** The model's shard of this name: the same name, else the only one equal ignoring case. */
  private static @Nullable String find(String name, List<String> model) {
    if (model.contains(name)) {
      return name;
    }
    String match = null;
    for (String shard : model) {
      if (shard.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        if (match != null) {
          return null;
        }
        match = shard;
      }
    }
    return match;
  }

  /**
   * Refuses the UPDATE or DELETE of a duplicated table whose target a {@code SHARDS} hint
   * restricts (every shard holds a copy, and changing some copies would make them differ), and
   * any MERGE whose target one restricts (its inserts go where the keys route, whatever the
   * hint). Run on the converted statement, before the planners.
   *
   * @throws io.shardset.calcite.guard.StatementRefusedException if a hint restricts such a
   *     target
   */
  static void checkWrites(RelNode statement) {
    if (statement instanceof TableModify modify && !modify.isInsert()) {
      final ShardTable table = modify.getTable().unwrap(ShardTable.class);
      if (table != null && modify.isMerge()) {
        checkTarget(table, modify.getInput(), "the MERGE into " + table.qualifiedName()
            + ": a MERGE inserts the rows it does not find where their keys route; hint the"
            + " query of its source instead");
      } else if (table != null && table.isDuplicated()) {
        checkTarget(table, modify.getInput(), "the " + modify.getOperation().name()
            + " of duplicated table " + table.qualifiedName() + ": every shard holds a copy,"
            + " and the copies change together");
      }
    }
    statement.getInputs().forEach(ScanHints::checkWrites);
  }

  private static void checkTarget(ShardTable table, RelNode input, String why) {
    input.accept(new RelShuttleImpl() {
      @Override public RelNode visit(TableScan scan) {
        if (scan instanceof ShardTableScan shardScan && shardScan.shardTable() == table
            && shardScan.scanHints().restricts()) {
          throw ShardHints.refused("hint " + ShardHints.SHARDS + " cannot restrict " + why);
        }
        return scan;
      }
    });
  }

  /** Whether a hint restricts the shards. */
  public boolean restricts() {
    return shards != null;
  }

  /** The table's shards the hint allows, numbered as the table numbers them; null when no
   * hint restricts the scan. */
  @Nullable BitSet allowed(ShardTable table) {
    if (shards == null) {
      return null;
    }
    final BitSet allowed = new BitSet();
    for (String name : shards) {
      final int index = table.shardIndex(name);
      if (index >= 0) {
        allowed.set(index);
      }
    }
    return allowed;
  }

  /** The hints of a join of two scans with these hints: both must allow a scatter. */
  ScanHints joinedWith(ScanHints other) {
    if (!Objects.equals(shards, other.shards)) {
      throw new IllegalArgumentException("scans with other shard hints do not join");
    }
    return scatter == other.scatter ? this : new ScanHints(shards, false);
  }

  /** Whether a scan with these hints may run a join inside the shards with one of
   * {@code other}'s: both restricted to the same shards, or neither. */
  boolean joinsWith(ScanHints other) {
    return Objects.equals(shards, other.shards);
  }

  /** For EXPLAIN and digests, e.g. {@code SHARDS(s1, s2) SCATTER}; empty with no hint. */
  String describe() {
    final StringBuilder b = new StringBuilder();
    if (shards != null) {
      b.append(ShardHints.SHARDS).append('(').append(String.join(", ", shards)).append(')');
    }
    if (scatter) {
      b.append(b.length() == 0 ? "" : " ").append(ShardHints.SCATTER);
    }
    return b.toString();
  }
}
