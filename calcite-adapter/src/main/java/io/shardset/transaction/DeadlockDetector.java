package io.shardset.transaction;

import io.shardset.execution.ShardEndpoint;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Finds the deadlocks of a coordinator's transactions that span shards and ends each one, the
 * way Citus does: no shard sees such a deadlock (transaction A waits for B's lock on one shard,
 * B for A's on another; each shard sees one wait), so the coordinator reads each shard's lock
 * waits, maps the waiting and blocking sessions to its own transactions by their branches'
 * session ids, and looks for cycles in that wait-for graph. Of each cycle that crosses shards
 * it ends the youngest transaction: marks it (its failing statement then reports SQLState
 * 40P01) and cancels its waiting statements, which releases nothing by itself but makes its
 * client's statement fail, after which the session rolls the transaction back. Deadlocks
 * within one shard are that shard's own to detect.
 *
 * <p>A cycle is confirmed by reading the waits of its shards again before anything is
 * cancelled, since the shards' lists are read one after another. H2 cannot cancel a lock wait
 * (only its lock timeout ends one): a deadlock across H2 shards ends by that timeout.
 *
 * <p>Runs on the coordinator's deadlock thread; one pass at a time.
 */
final class DeadlockDetector {
  private static final Logger LOG = LoggerFactory.getLogger(DeadlockDetector.class);

  private final TransactionCoordinator coordinator;
  private final AtomicLong ended = new AtomicLong();

  DeadlockDetector(TransactionCoordinator coordinator) {
    this.coordinator = coordinator;
  }

  /** How many deadlocks it ended so far. */
  long deadlocksEnded() {
    return ended.get();
  }

  /** One wait: a session of {@code waiter} waits on {@code shard} for one of {@code holder}. */
  private record Wait(ShardTransaction waiter, ShardTransaction holder, String shard,
      long waitingSession, long holdingSession) {
  }

  /** The sessions of the live transactions on one shard. */
  private static final class ShardSessions {
    final ShardEndpoint endpoint;
    final CommitProtocol backend;
    final Map<Long, ShardTransaction> bySession = new HashMap<>();

    ShardSessions(ShardEndpoint endpoint, CommitProtocol backend) {
      this.endpoint = endpoint;
      this.backend = backend;
    }

    Set<ShardTransaction> transactions() {
      return new HashSet<>(bySession.values());
    }
  }

  /**
   * Looks for deadlocks across shards once, and ends those it finds.
   *
   * @return the transactions it chose to end
   */
  List<ShardTransaction> check() {
    final List<ShardTransaction> live = coordinator.liveTransactions();
    if (live.size() < 2) {
      return List.of();
    }
    final Map<String, ShardSessions> shards = sessions(live);
    final List<Wait> waits = new ArrayList<>();
    for (Map.Entry<String, ShardSessions> shard : shards.entrySet()) {
      if (shard.getValue().transactions().size() >= 2) {
        waits.addAll(waits(shard.getKey(), shard.getValue()));
      }
    }
    final List<ShardTransaction> victims = new ArrayList<>();
    final Set<ShardTransaction> gone = new HashSet<>();
    while (true) {
      final List<Wait> cycle = cycle(waits, gone);
      if (cycle == null) {
        break;
      }
      final ShardTransaction victim = youngest(cycle);
      gone.add(victim);
      if (crossesShards(cycle) && victim.deadlock() == null && confirmed(cycle, shards)
          && end(victim, cycle, shards)) {
        victims.add(victim);
      }
    }
    return victims;
  }

  /** The open branches of the live transactions, by shard and session id. */
  private Map<String, ShardSessions> sessions(List<ShardTransaction> live) {
    final Map<String, ShardSessions> shards = new LinkedHashMap<>();
    for (ShardTransaction transaction : live) {
      for (ShardBranch branch : transaction.openBranches()) {
        final long session = branch.sessionId();
        if (session < 0 || !transaction.isActive()) {
          continue;
        }
        shards.computeIfAbsent(branch.shard.name(),
            name -> new ShardSessions(branch.shard, branch.backend()))
            .bySession.put(session, transaction);
      }
    }
    return shards;
  }

  /** The waits on one shard between two of the coordinator's transactions. */
  private List<Wait> waits(String name, ShardSessions shard) {
    final List<Wait> waits = new ArrayList<>();
    final List<long[]> pairs;
    try (Connection monitor = shard.endpoint.connectForMonitoring()) {
      pairs = shard.backend.lockWaits(monitor);
    } catch (SQLException | RuntimeException e) {
      LOG.debug("reading the lock waits of shard {} failed: {}", name,
          shard.endpoint.redact(String.valueOf(e.getMessage())));
      return waits;
    }
    for (long[] pair : pairs) {
      final ShardTransaction waiter = shard.bySession.get(pair[0]);
      final ShardTransaction holder = shard.bySession.get(pair[1]);
      if (waiter != null && holder != null && waiter != holder) {
        waits.add(new Wait(waiter, holder, name, pair[0], pair[1]));
      }
    }
    return waits;
  }

  /** A cycle of waits among transactions not yet ended, or null. */
  private static List<Wait> cycle(List<Wait> waits, Set<ShardTransaction> gone) {
    final Map<ShardTransaction, List<Wait>> out = new LinkedHashMap<>();
    for (Wait wait : waits) {
      if (!gone.contains(wait.waiter()) && !gone.contains(wait.holder())) {
        out.computeIfAbsent(wait.waiter(), t -> new ArrayList<>()).add(wait);
      }
    }
    final Set<ShardTransaction> done = new HashSet<>();
    for (ShardTransaction start : out.keySet()) {
      final List<Wait> found = walk(start, out, new LinkedHashSet<>(), new ArrayList<>(), done);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static List<Wait> walk(ShardTransaction at, Map<ShardTransaction, List<Wait>> out,
      LinkedHashSet<ShardTransaction> path, List<Wait> edges, Set<ShardTransaction> done) {
    if (path.contains(at)) {
      // The cycle is the part of the path from where it first met this transaction.
      final List<ShardTransaction> nodes = new ArrayList<>(path);
      return new ArrayList<>(edges.subList(nodes.indexOf(at), edges.size()));
    }
    if (done.contains(at)) {
      return null;
    }
    path.add(at);
    for (Wait wait : out.getOrDefault(at, List.of())) {
      edges.add(wait);
      final List<Wait> found = walk(wait.holder(), out, path, edges, done);
      if (found != null) {
        return found;
      }
      edges.remove(edges.size() - 1);
    }
    path.remove(at);
    done.add(at);
    return null;
  }

  private static boolean crossesShards(List<Wait> cycle) {
    return cycle.stream().map(Wait::shard).distinct().count() > 1;
  }

  private static ShardTransaction youngest(List<Wait> cycle) {
    ShardTransaction youngest = cycle.get(0).waiter();
    for (Wait wait : cycle) {
      if (wait.waiter().sequence() > youngest.sequence()) {
        youngest = wait.waiter();
      }
    }
    return youngest;
  }

  /** Whether every wait of the cycle is still there when its shards are read again. */
  private boolean confirmed(List<Wait> cycle, Map<String, ShardSessions> shards) {
    final Map<String, List<Wait>> again = new HashMap<>();
    for (Wait wait : cycle) {
      final List<Wait> now = again.computeIfAbsent(wait.shard(),
          name -> waits(name, shards.get(name)));
      if (now.stream().noneMatch(w -> w.waiter() == wait.waiter()
          && w.holder() == wait.holder() && w.waitingSession() == wait.waitingSession())) {
        return false;
      }
    }
    return true;
  }

  /** Marks the victim and cancels its waiting statements; false if the shard cannot. */
  private boolean end(ShardTransaction victim, List<Wait> cycle,
      Map<String, ShardSessions> shards) {
    final String why = describe(victim, cycle);
    final List<Wait> cancellable = cycle.stream().filter(wait -> wait.waiter() == victim
        && shards.get(wait.shard()).backend.cancels()).toList();
    if (cancellable.isEmpty()) {
      LOG.debug("{}; its shard cannot cancel a lock wait, so its lock timeout ends it", why);
      return false;
    }
    // Marked first: the statement that fails once cancelled must find why.
    victim.chosenToEndDeadlock(why);
    boolean cancelled = false;
    for (Wait wait : cancellable) {
      final ShardSessions shard = shards.get(wait.shard());
      try (Connection monitor = shard.endpoint.connectForMonitoring()) {
        cancelled |= shard.backend.cancel(monitor, wait.waitingSession());
      } catch (SQLException | RuntimeException e) {
        LOG.warn("cancelling the waiting statement of {} on shard {} failed: {}", victim,
            wait.shard(), shard.endpoint.redact(String.valueOf(e.getMessage())));
      }
    }
    if (cancelled) {
      ended.incrementAndGet();
      LOG.warn("{}", why);
    }
    return cancelled;
  }

  private static String describe(ShardTransaction victim, List<Wait> cycle) {
    final StringBuilder text = new StringBuilder("deadlock detected across shards: ");
    for (int i = 0; i < cycle.size(); i++) {
      final Wait wait = cycle.get(i);
      text.append(i == 0 ? "" : ", which ").append(name(wait.waiter()))
          .append(" waited on shard '").append(wait.shard()).append("' for ")
          .append(name(wait.holder()));
    }
    return text.append("; ").append(name(victim)).append(", the youngest, was chosen to end"
        + " it and is rolled back; retry it").toString();
  }

  private static String name(ShardTransaction transaction) {
    return "transaction #" + transaction.sequence();
  }
}
