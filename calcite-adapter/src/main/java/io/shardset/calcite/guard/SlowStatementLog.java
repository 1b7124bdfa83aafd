package io.shardset.calcite.guard;

import io.shardset.execution.ShardRun;
import io.shardset.execution.TrackedStatement;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Logs a statement that took at least its connection's threshold, once, when it ends: one
 * event on the logger {@value #LOGGER} at WARN, with the statement's time, planning time,
 * shards and rows, its SQL, and a line per shard statement (time, rows, how it ended, its SQL;
 * the first {@value #LISTED_RUNS}, then counts by shard);
 * literal values masked unless the connection asked for them ({@link ActivitySettings}).
 */
public final class SlowStatementLog {
  /** The logger's name, for routing the log to a file of its own. */
  public static final String LOGGER = "io.shardset.slow";

  private static final Logger LOG = LoggerFactory.getLogger(LOGGER);
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  /** The most shard statements the log lists one by one. */
  static final int LISTED_RUNS = 20;

  private SlowStatementLog() {
  }

  /** Logs the ended statement if it was slow; returns whether it did. */
  public static boolean logIfSlow(TrackedStatement statement, ActivitySettings settings) {
    if (settings.slowMillis() <= 0 || statement.elapsedMillis() < settings.slowMillis()
        || !LOG.isWarnEnabled()) {
      return false;
    }
    LOG.warn(describe(statement, settings.slowLiterals()));
    return true;
  }

  /** The log event's text. */
  static String describe(TrackedStatement statement, boolean literals) {
    final List<ShardRun> runs = statement.shardRuns();
    final StringBuilder text = new StringBuilder();
    text.append(String.format(Locale.ROOT,
        "slow statement %d of user '%s': %d ms (planning %d ms), %s, %s on %s %s, %d rows"
            + " from shards: %s",
        statement.id(), statement.user(), statement.elapsedMillis(),
        statement.planningMillis(), statement.outcome(),
        counted(statement.shardStatements(), "shard statement"),
        counted(statement.shards().size(), "shard"), statement.shards(),
        statement.shardRows(), text(statement.sql(), literals)));
    for (ShardRun run : runs.subList(0, Math.min(LISTED_RUNS, runs.size()))) {
      text.append(String.format(Locale.ROOT, "%n  shard %s: %.1f ms, %d rows, %s: %s",
          run.shard(), run.elapsedMillis(), run.rows(), run.state(),
          text(run.sql(), literals)));
    }
    if (statement.shardStatements() > LISTED_RUNS) {
      // A scan opened again for each outer row: one line each would bury the log.
      final Map<String, long[]> byShard = new TreeMap<>();
      for (ShardRun run : runs) {
        final long[] sums = byShard.computeIfAbsent(run.shard(), shard -> new long[2]);
        sums[0]++;
        sums[1] += run.rows();
      }
      final StringJoiner shards = new StringJoiner("; ");
      byShard.forEach((shard, sums) -> shards.add(shard + " " + counted((int) sums[0],
          "statement") + ", " + sums[1] + " rows"));
      text.append(String.format(Locale.ROOT, "%n  and %d more; the first %d by shard: %s",
          statement.shardStatements() - LISTED_RUNS, runs.size(), shards));
    }
    return text.toString();
  }

  private static String counted(int count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }

  /** A statement's text on one line, literal values masked unless {@code literals}. */
  static String text(String sql, boolean literals) {
    final String oneLine = WHITESPACE.matcher(sql).replaceAll(" ").trim();
    return literals ? oneLine : LiteralMask.mask(oneLine);
  }
}
