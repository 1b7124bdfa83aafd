package io.shardset.calcite.runtime;

import io.shardset.model.MoveTables;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The SQL of one shard scan, prepared with the statement: for each group of shards that share
 * a dialect and physical tables, a {@link SqlTemplate} per shape the scans' tables can take,
 * and the physical tables each scan can read there. An execution picks the tables (the
 * subpartitions its parameters select, the move tables of a resharding in progress) and fills
 * the templates, without the planner.
 *
 * <p>Thread-safe: executions of one prepared statement share it.
 */
public final class ShardStatements {
  /** Texts kept per prepared statement, for selections and move readers met. */
  static final int KEPT = 32;

  /**
   * Shards that get the same text (or, where long key lists are narrowed per shard, one
   * shard).
   *
   * @param shards the table's shards (by index) of the group
   * @param scans for each scan of the pushed work, the physical tables that hold its rows on
   *     these shards: the table, or each subpartition's
   * @param selectsFirst whether the first scan reads only the subpartitions selected
   * @param templates the statement for each shape the scans' tables can take
   */
  public record Group(BitSet shards, List<List<PhysicalTable>> scans, boolean selectsFirst,
      Map<List<ScanShape>, SqlTemplate> templates) {
    public Group {
      shards = (BitSet) shards.clone();
      scans = scans.stream().map(List::copyOf).toList();
      templates = Map.copyOf(templates);
    }

    @Override public BitSet shards() {
      return (BitSet) shards.clone();
    }

    /**
     * The tables the scans read for a choice.
     *
     * @param chosen the subpartitions the first scan reads: null for all, empty for the first
     * @param carried the scans that read their move tables too
     */
    public List<List<PhysicalTable>> tables(@Nullable BitSet chosen, BitSet carried) {
      final List<List<PhysicalTable>> result = new ArrayList<>();
      for (int scan = 0; scan < scans.size(); scan++) {
        final List<PhysicalTable> all = scans.get(scan);
        final List<PhysicalTable> read =
            scan > 0 || !selectsFirst ? all : PhysicalTable.chosen(all, chosen);
        result.add(carried.get(scan) ? withMoveTables(read) : read);
      }
      return result;
    }

    /** The text for a choice of tables. */
    SqlTemplate.Rendered render(List<List<PhysicalTable>> tables) {
      final List<ScanShape> shapes = ScanShape.of(tables);
      final SqlTemplate template = templates.get(shapes);
      if (template == null) {
        throw new IllegalStateException("no statement prepared for tables of shapes "
            + shapes + " on shards " + shards);
      }
      return template.fill(tables);
    }
  }

  /** What the texts of an execution depend on. */
  private record Choice(@Nullable BitSet chosen, BitSet moveReaders, BitSet carried) {
  }

  private final int shardCount;
  private final List<Group> groups;
  private final @Nullable BitSet planned;
  private final ShardTexts plannedTexts;
  /** Whether only the planned texts exist (see {@link #fixed}). */
  private final boolean fixed;
  private final TextCache<Choice> kept = new TextCache<>(KEPT);

  /**
   * Creates the statements.
   *
   * @param shardCount the number of shards of the table that drives the scan
   * @param planned the subpartitions the first scan reads when known at planning: null for
   *     all (or when parameters decide)
   */
  public ShardStatements(int shardCount, List<Group> groups, @Nullable BitSet planned) {
    this.shardCount = shardCount;
    this.groups = List.copyOf(groups);
    this.planned = planned == null ? null : (BitSet) planned.clone();
    this.plannedTexts = fill(new Choice(this.planned, new BitSet(), new BitSet()));
    this.fixed = false;
  }

  private ShardStatements(ShardTexts texts) {
    this.shardCount = 0;
    this.groups = List.of();
    this.planned = null;
    this.plannedTexts = texts;
    this.fixed = true;
  }

  /**
   * The statements of a scan whose every execution reads the tables the plan reads (its
   * model cannot change and no query parameter selects subpartitions): the planned texts,
   * without templates, which would only cost preparing time.
   */
  public static ShardStatements fixed(ShardTexts texts) {
    return new ShardStatements(Objects.requireNonNull(texts, "texts"));
  }

  /** The groups of shards and their templates. */
  public List<Group> groups() {
    return groups;
  }

  /** The texts that read what the plan reads. */
  public ShardTexts planned() {
    return plannedTexts;
  }

  /**
   * The texts for an execution.
   *
   * @param chosen the subpartitions that query parameters select, or null for those the plan
   *     reads
   * @param moveReaders the shards that read the move tables of the carried scans
   * @param carried the scans whose tables a resharding in progress carries
   */
  public ShardTexts texts(@Nullable BitSet chosen, BitSet moveReaders, BitSet carried) {
    final Choice choice = new Choice(chosen == null ? planned : chosen,
        carried.isEmpty() ? new BitSet() : moveReaders, moveReaders.isEmpty() ? new BitSet()
            : carried);
    if (choice.moveReaders().isEmpty() && Objects.equals(choice.chosen(), planned)) {
      return plannedTexts;
    }
    if (fixed) {
      throw new IllegalStateException("the scan was prepared for the planned tables only");
    }
    return kept.get(choice, () -> fill(choice));
  }

  /** How many choices' texts are kept now. */
  int keptCount() {
    return kept.size();
  }

  private ShardTexts fill(Choice choice) {
    final List<ShardTexts.Text> texts = new ArrayList<>();
    final BitSet none = new BitSet();
    for (Group group : groups) {
      final BitSet movers = group.shards();
      movers.and(choice.moveReaders());
      final BitSet others = group.shards();
      others.andNot(choice.moveReaders());
      add(texts, group, others, group.tables(choice.chosen(), none));
      add(texts, group, movers, group.tables(choice.chosen(), choice.carried()));
    }
    return new ShardTexts(texts, shardCount);
  }

  private static void add(List<ShardTexts.Text> texts, Group group, BitSet shards,
      List<List<PhysicalTable>> tables) {
    if (!shards.isEmpty()) {
      final SqlTemplate.Rendered sql = group.render(tables);
      texts.add(new ShardTexts.Text(shards, sql.sql(), sql.parameters()));
    }
  }

  /** Each physical table followed by its move table, which has the same qualification and
   * columns. */
  public static List<PhysicalTable> withMoveTables(List<PhysicalTable> tables) {
    final List<PhysicalTable> result = new ArrayList<>();
    for (PhysicalTable table : tables) {
      final List<String> moveName = new ArrayList<>(table.qualifiedName());
      final int last = moveName.size() - 1;
      moveName.set(last, MoveTables.name(moveName.get(last)));
      result.add(table);
      result.add(new PhysicalTable(moveName, table.columns()));
    }
    return result;
  }
}
