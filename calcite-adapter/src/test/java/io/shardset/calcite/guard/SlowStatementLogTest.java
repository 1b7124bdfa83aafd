package io.shardset.calcite.guard;

import io.shardset.execution.ShardRun;
import io.shardset.execution.StatementTracker;
import io.shardset.execution.TrackedStatement;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The slow-statement log's text: masked literals, and a long statement's shard lines. */
class SlowStatementLogTest {
  @Test void aStatementOfManyShardStatementsListsTheFirstAndCountsTheRest() {
    final StatementTracker tracker = new StatementTracker();
    final TrackedStatement statement = tracker.start(new Object(), "ann",
        "SELECT * FROM T A, U B WHERE A.V > 'x42'", new AtomicBoolean(), true);
    tracker.executed();
    for (int i = 0; i < 50; i++) {
      final ShardRun run = statement.startShard("s" + i % 2, "SELECT \"K\" FROM \"U\"");
      run.end(10, "ok");
    }
    tracker.end(statement, "ok");
    final String text = SlowStatementLog.describe(statement, false);
    final String[] lines = text.split("\n");
    assertEquals(1 + SlowStatementLog.LISTED_RUNS + 1, lines.length, text);
    assertTrue(lines[0].startsWith("slow statement " + statement.id() + " of user 'ann': "),
        lines[0]);
    assertTrue(lines[0].endsWith(", ok, 50 shard statements on 2 shards [s0, s1], 500 rows from"
        + " shards: SELECT * FROM T A, U B WHERE A.V > '?'"), lines[0]);
    assertTrue(lines[1].matches("  shard s0: [0-9.]+ ms, 10 rows, ok: SELECT \"K\" FROM \"U\""),
        lines[1]);
    assertEquals("  and 30 more; the first 50 by shard: s0 25 statements, 250 rows; s1 25"
        + " statements, 250 rows", lines[lines.length - 1]);
  }
}
