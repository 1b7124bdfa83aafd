package io.shardset.transaction;

import java.util.List;

/**
 * What one recovery pass did with the prepared transactions its shards held.
 *
 * @param committed prepared branches committed, their transaction's commit being recorded
 * @param rolledBack prepared branches rolled back, their transaction having no commit record
 *     and no live coordinator to decide it
 * @param skipped prepared branches left alone: their transaction is in progress in this
 *     process, or its coordinator instance is alive elsewhere, or (MariaDB) the session that
 *     ran the branch has not ended yet; or the shard no longer knew the branch when told to
 *     finish it. The next pass looks at them again
 * @param failed prepared branches that could not be committed or rolled back now; the next
 *     pass tries again
 * @param forgotten commit records deleted, their transaction committed on every shard
 * @param unreachable shards that could not be asked for their prepared transactions
 */
public record RecoveryReport(int committed, int rolledBack, int skipped, int failed,
    int forgotten, List<String> unreachable) {
  /** What a pass that found nothing to do reports. */
  public static final RecoveryReport NOTHING = new RecoveryReport(0, 0, 0, 0, 0, List.of());

  public RecoveryReport {
    unreachable = List.copyOf(unreachable);
  }

  /** The two passes' counts added up, the second's unreachable shards. */
  public RecoveryReport plus(RecoveryReport next) {
    return new RecoveryReport(committed + next.committed, rolledBack + next.rolledBack,
        next.skipped, failed + next.failed, forgotten + next.forgotten, next.unreachable);
  }

  /** Whether the pass changed or found anything worth telling. */
  public boolean isEmpty() {
    return equals(NOTHING);
  }
}
