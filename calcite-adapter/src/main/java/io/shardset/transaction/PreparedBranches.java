package io.shardset.transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The branches of ShardSet's transactions a shard holds prepared: committed or rolled back
 * once their coordinator (or another process's recovery) finishes them.
 */
public final class PreparedBranches {
  private PreparedBranches() {
  }

  /**
   * The ids of the ShardSet branches prepared on the shard of this connection (on MariaDB,
   * on its whole server).
   */
  public static List<String> on(Connection connection) throws SQLException {
    return CommitProtocol.of(connection).prepared(connection).stream()
        .filter(id -> id.startsWith(GlobalId.MARK)).toList();
  }

  /**
   * Finishes branches that their coordinators left prepared on the shard of this connection
   * for longer than any commit takes, although recovery takes those coordinators for alive
   * (they hold their lock in the decision log: paused, say, or cut off from the shards). Each
   * coordinator is fenced first ({@link DecisionLog#fence}): from then on it can record no
   * decision, so the log's records are the final word, and a branch is committed if its
   * transaction has a commit record and rolled back if not. A coordinator that resumes finds
   * its branches finished: one that had recorded the decision reports the commit, one that
   * had not fails to record it and reports the transaction rolled back.
   *
   * @param settings the schema's transaction settings: its decision log
   * @param branches branch ids as {@link #on} listed them
   * @param wait how long to wait for a decision a coordinator is recording at that moment
   * @return one line per branch, saying what became of it
   */
  public static List<String> finishStalled(TransactionSettings settings, Connection connection,
      List<String> branches, Duration wait) throws SQLException {
    final List<String> outcomes = new ArrayList<>();
    if (settings.log() == null) {
      branches.forEach(b -> outcomes.add(b + " left: schema '" + settings.scope()
          + "' has no decision log to tell its outcome"));
      return outcomes;
    }
    final CommitProtocol backend = CommitProtocol.of(connection);
    try (DecisionLog log = DecisionLog.open(settings.log())) {
      final String prefix = GlobalId.prefix(log.logId());
      final Map<String, Boolean> fenced = new HashMap<>();
      final List<GlobalId.Branch> ours = new ArrayList<>();
      for (String text : branches) {
        final GlobalId.Branch branch = text.startsWith(prefix) ? GlobalId.parseBranch(text)
            : null;
        if (branch == null) {
          outcomes.add(text + " left: not a transaction of schema '" + settings.scope()
              + "''s decision log");
        } else if (fenced.computeIfAbsent(branch.transaction().instance(),
            owner -> log.fence(owner, wait))) {
          ours.add(branch);
        } else {
          outcomes.add(text + " left: its coordinator "
              + branch.transaction().instance() + " could not be fenced");
        }
      }
      // Read after the fences: no fenced coordinator can add a record any more.
      final Map<String, DecisionLog.Decision> decisions = log.decisions();
      for (GlobalId.Branch branch : ours) {
        outcomes.add(branch.id() + " " + finish(backend, connection, branch,
            decisions.containsKey(branch.transaction().text())));
      }
    }
    return outcomes;
  }

  private static String finish(CommitProtocol backend, Connection connection,
      GlobalId.Branch branch, boolean commit) throws SQLException {
    if (backend.isHeld(connection, branch.id())) {
      return "left: the session that prepared it is still open";
    }
    try {
      if (commit) {
        backend.commitPrepared(connection, branch.id());
        return "committed (its commit decision was recorded)";
      }
      backend.rollbackPrepared(connection, branch.id());
      return "rolled back (no commit decision was recorded)";
    } catch (SQLException e) {
      if (backend.isUnknownBranch(e)) {
        return "finished meanwhile";
      }
      throw e;
    }
  }
}
