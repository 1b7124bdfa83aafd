package io.shardset.model;

import java.util.List;
import java.util.Set;

/** Reads the {@code transactions} object of a model operand. */
final class TransactionsParser {
  private static final List<String> KEYS = List.of("log", "bestEffort", "recoveryIntervalSeconds",
      "deadlockCheckMillis");
  /** A day: recovery that rarely would leave prepared transactions holding locks for long. */
  private static final long MAX_RECOVERY_INTERVAL_SECONDS = 86_400;
  /** A minute: a deadlock checked for less often holds its locks too long. */
  private static final long MAX_DEADLOCK_CHECK_MILLIS = 60_000;

  private TransactionsParser() {
  }

  /** The schema's transaction settings; the defaults when the operand has none. */
  static TransactionsSpec parse(OperandNode operand) {
    OperandNode node = operand.object("transactions");
    if (node == null) {
      return TransactionsSpec.DEFAULT;
    }
    node.checkKeys(KEYS, Set.of());
    String log = node.name("log");
    Long interval = node.integer("recoveryIntervalSeconds", 1, MAX_RECOVERY_INTERVAL_SECONDS);
    Long deadlocks = node.integer("deadlockCheckMillis", 0, MAX_DEADLOCK_CHECK_MILLIS);
    return new TransactionsSpec(log, node.flag("bestEffort"), interval == null
        ? TransactionsSpec.DEFAULT_RECOVERY_INTERVAL_SECONDS : interval.intValue(),
        deadlocks == null ? TransactionsSpec.DEFAULT_DEADLOCK_CHECK_MILLIS
            : deadlocks.intValue());
  }
}
