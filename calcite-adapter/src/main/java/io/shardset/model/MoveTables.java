package io.shardset.model;

import java.util.Locale;

/**
 * Names of move tables: while a resharding runs, each table of the moving family has, on each
 * shard the move involves, a twin of the same columns that holds the rows in transit.
 */
public final class MoveTables {
  /** What a move table's name adds to its table's name. */
  public static final String SUFFIX = "_shardset_move";

  private MoveTables() {
  }

  /**
   * The move table of a physical table (a table or a subpartition table), named as the shard
   * names it: in lower case when the table's name has a lower-case letter (PostgreSQL folds
   * to lower case), else in upper case (H2 folds to upper case).
   */
  public static String name(String physicalTable) {
    boolean lower = !physicalTable.equals(physicalTable.toUpperCase(Locale.ROOT));
    return physicalTable + (lower ? SUFFIX : SUFFIX.toUpperCase(Locale.ROOT));
  }
}
