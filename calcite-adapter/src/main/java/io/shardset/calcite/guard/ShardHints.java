package io.shardset.calcite.guard;

import org.apache.calcite.rel.hint.HintPredicates;
import org.apache.calcite.rel.hint.HintStrategy;
import org.apache.calcite.rel.hint.HintStrategyTable;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.util.Holder;
import org.apache.calcite.util.Litmus;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.helpers.MessageFormatter;

import java.util.function.Consumer;

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

  /** The hook's handler, added once, when this class is first used, and never removed. */
  private static final class ConverterHook {
    static {
      Hook.SQL2REL_CONVERTER_CONFIG_BUILDER.add(
          (Consumer<Holder<SqlToRelConverter.Config>>) holder -> {
            if (holder.get().getHintStrategyTable() == HintStrategyTable.EMPTY) {
              holder.set(holder.get().withHintStrategyTable(STRATEGIES));
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
