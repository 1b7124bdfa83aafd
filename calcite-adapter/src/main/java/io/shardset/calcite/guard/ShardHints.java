package io.shardset.calcite.guard;

import org.apache.calcite.rel.hint.HintPredicates;
import org.apache.calcite.rel.hint.HintStrategy;
import org.apache.calcite.rel.hint.HintStrategyTable;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlHint;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlMerge;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.util.Holder;
import org.apache.calcite.util.Litmus;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.helpers.MessageFormatter;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The SQL hints ShardSet follows. They are written in Calcite's hint syntax, after
 * {@code SELECT} for every table of the query block (and the blocks inside it), or after one
 * table's name for that table, the target table of an UPDATE or DELETE included:
 *
 * <ul>
 *   <li>{@code SHARDS(s1, s2)}: read (or change) only the rows the named shards hold, for
 *       per-shard maintenance and debugging; a table none of whose shards is named reads no
 *       rows. Names are matched ignoring case unless two shards differ only in case; quote one
 *       ({@code "s1"} or {@code 's1'}) to keep its case.
 *   <li>{@code SCATTER}: allow a statement that a scatter guardrail would refuse or warn of.
 * </ul>
 *
 * <p>Any other hint, or one of these with options it does not take, fails the statement:
 * a misspelt {@code SHARDS} that were silently dropped would change every shard instead of
 * one.
 */
public final class ShardHints {
  /** Restricts scans to named shards. */
  public static final String SHARDS = "SHARDS";
  /** Allows a scatter that a guardrail would refuse. */
  public static final String SCATTER = "SCATTER";

  /** Whether the statement this thread prepares gets ShardSet's converter (jdbc:shardset:'s),
   * which follows block hints and gives global sequences their values. */
  private static final ThreadLocal<Boolean> BLOCKS_FOLLOWED =
      ThreadLocal.withInitial(() -> false);

  /** How Calcite says a hint is not in the table. */
  private static final String UNKNOWN = "Hint: {} should be registered in the {}";

  /** Fails the statement with the hint's problem, where Calcite would log it and go on. */
  private static final Litmus REFUSE = (message, args) -> {
    if (UNKNOWN.equals(message) && args != null && args.length > 0) {
      throw refused("unknown hint " + args[0] + "; ShardSet knows " + SHARDS
          + "(shard, ...) and " + SCATTER);
    }
    throw refused(String.valueOf(MessageFormatter.arrayFormat(message, args).getMessage()));
  };

  /** The hints, both given to every table scan of the block they are written in. */
  public static final HintStrategyTable STRATEGIES = HintStrategyTable.builder()
      .hintStrategy(SHARDS, HintStrategy.builder(HintPredicates.TABLE_SCAN)
          .optionChecker((hint, litmus) -> litmus.check(
              !hint.listOptions.isEmpty() && hint.kvOptions.isEmpty(),
              "hint " + SHARDS + " takes one or more shard names, as in " + SHARDS + "(s1, s2)"))
          .build())
      .hintStrategy(SCATTER, HintStrategy.builder(HintPredicates.TABLE_SCAN)
          .optionChecker((hint, litmus) -> litmus.check(
              hint.listOptions.isEmpty() && hint.kvOptions.isEmpty(),
              "hint " + SCATTER + " takes no options"))
          .build())
      .errorHandler(REFUSE)
      .build();

  private ShardHints() {
  }

  /**
   * Gives every statement's converter these hints, unless it has hints of its own:
   * Calcite's driver builds its converter's configuration from {@link Hook}, process-wide.
   * The schema factory calls this before its connection converts a statement.
   */
  public static void install() {
    ConverterHook.ensureInstalled();
  }

  /**
   * Prepares a statement whose converter gives each table the hints of the query blocks
   * around it ({@code jdbc:shardset:}'s): the check for converters that do not (Calcite's own)
   * then lets its block hints be. Calcite's hooks are process-wide, so the flag that tells the
   * parse hook which converter the statement gets is the thread's.
   */
  public static <T> T withBlockHintsFollowed(Supplier<T> preparation) {
    final boolean before = BLOCKS_FOLLOWED.get();
    BLOCKS_FOLLOWED.set(true);
    try {
      return preparation.get();
    } finally {
      BLOCKS_FOLLOWED.set(before);
    }
  }

  /**
   * Refuses a hint after SELECT that Calcite's own converter would not hand to every table it
   * applies to: it hands a block's hints down the tree only after converting the statement,
   * which misses the tables of subqueries inside expressions and of derived tables whose top
   * node the enclosing block merged away. One query block is safe.
   */
  private static void checkBlocks(SqlNode statement) {
    if (BLOCKS_FOLLOWED.get()) {
      return;
    }
    final int[] blocks = {0};
    final boolean[] hinted = {false};
    statement.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlCall call) {
        if (call instanceof SqlDelete || call instanceof SqlUpdate || call instanceof SqlMerge) {
          // The query its target is read with, once validated: a block of its own.
          blocks[0]++;
        } else if (call instanceof SqlSelect select) {
          blocks[0]++;
          hinted[0] |= select.hasHints() && select.getHints().stream()
              .anyMatch(h -> h instanceof SqlHint hint
                  && (SHARDS.equalsIgnoreCase(hint.getName())
                      || SCATTER.equalsIgnoreCase(hint.getName())));
        }
        return super.visit(call);
      }
    });
    if (hinted[0] && blocks[0] > 1) {
      throw refused("on jdbc:calcite:, a " + SHARDS + " or " + SCATTER + " hint after SELECT"
          + " is followed only in a statement of one query block: write it after each table's"
          + " name (FROM T /*+ " + SHARDS + "(s1) */), or connect with jdbc:shardset:");
    }
  }

  /**
   * Refuses {@code NEXT VALUE FOR} on Calcite's own driver, whose converter makes it Calcite's
   * counter in memory per thread: values that repeat across threads and processes. ShardSet's
   * driver makes it the global sequence's next value; a column default takes it on either.
   */
  private static void checkSequences(SqlNode statement) {
    if (BLOCKS_FOLLOWED.get()) {
      return;
    }
    statement.accept(new SqlBasicVisitor<Void>() {
      @Override public Void visit(SqlCall call) {
        if (call.getKind() == SqlKind.NEXT_VALUE || call.getKind() == SqlKind.CURRENT_VALUE) {
          throw refused("on jdbc:calcite:, " + call.getOperator().getName().replace('_', ' ')
              + " FOR is Calcite's own counter, kept per thread, not a global sequence:"
              + " connect with jdbc:shardset:, or leave the column out of the INSERT to take"
              + " its sequence's next value");
        }
        return super.visit(call);
      }
    });
  }

  /** The hook's handlers, added once, when this class is first used, and never removed. */
  private static final class ConverterHook {
    static {
      Hook.SQL2REL_CONVERTER_CONFIG_BUILDER.add(
          (Consumer<Holder<SqlToRelConverter.Config>>) holder -> {
            if (holder.get().getHintStrategyTable() == HintStrategyTable.EMPTY) {
              holder.set(holder.get().withHintStrategyTable(STRATEGIES));
            }
          });
      Hook.PARSE_TREE.add((Consumer<Object[]>) args -> {
        if (args.length > 1 && args[1] instanceof SqlNode statement) {
          checkBlocks(statement);
          checkSequences(statement);
        }
      });
    }

    private ConverterHook() {
    }

    /** Does nothing but make sure the class, and with it the handler, is initialised. */
    static void ensureInstalled() {
      // The static initialiser is the installation.
    }
  }

  /** Whether a hint is the one named. */
  public static boolean is(RelHint hint, String name) {
    return hint.hintName.equalsIgnoreCase(name);
  }

  /** A refusal of a statement whose hints ShardSet cannot follow. */
  public static StatementRefusedException refused(@Nullable String message) {
    return new StatementRefusedException(String.valueOf(message),
        StatementRefusedException.INVALID_STATEMENT);
  }
}
