package io.shardset.calcite.runtime;

import io.shardset.execution.ScanServices;
import io.shardset.session.ShardSession;
import io.shardset.topology.LiveModel;
import io.shardset.topology.Placement;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * One shard scan as code generation stashes it: what was planned ({@link PlannedScan}) and,
 * when the schema follows a model that can change, where that model places the rows at each
 * execution ({@link LivePlacement}). Each execution finds the shards it reaches
 * ({@link ShardReach}) and runs the scan ({@link ScanRunner}).
 *
 * <p>Immutable: a prepared statement shares one instance across executions (and threads).
 */
public final class ShardQuery {
  /**
   * The name under which a statement's data context says that its scans lock every row they
   * read ({@code SELECT ... FOR UPDATE}), when the statement runs in a transaction.
   */
  public static final String LOCK_ROWS = "shardset.lockRows";

  private final PlannedScan plan;
  private final @Nullable LivePlacement live;

  /**
   * Creates a query.
   *
   * @param live where the model file the schema follows places the rows at each execution,
   *     or null when the model cannot change
   */
  public ShardQuery(PlannedScan plan, @Nullable LivePlacement live) {
    this.plan = Objects.requireNonNull(plan, "plan");
    this.live = live;
  }

  /** What was planned. */
  public PlannedScan plan() {
    return plan;
  }

  /** The shards this execution reaches under the plan's router, from the query parameters
   * when the plan kept them. */
  public BitSet targets(DataContext root) {
    return ShardReach.targets(plan, root);
  }

  /**
   * Starts this query's scan for one execution, on the threads of {@code services}, reading
   * as {@code session} says (through its transaction, say), keeping only the rows whose
   * column is in {@code keys} when not null (see {@link JoinKeyList}).
   */
  Enumerator<Object[]> open(DataContext root, ScanServices services, ShardSession session,
      @Nullable JoinKeyList keys) {
    if (live == null) {
      return open(root, services, session, null, keys);
    }
    // The execution runs under one version of the model from start to end, so that the
    // resharding tool can wait for it before a step it would not expect.
    final LiveModel.Ticket ticket = live.enter();
    try {
      final Placement placement = live.of(ticket.snapshot());
      return new TicketEnumerator(
          open(root, services, session, placement.isAsPlanned() ? null : placement, keys),
          ticket);
    } catch (RuntimeException | Error e) {
      ticket.close();
      throw e;
    }
  }

  /** Starts the scan, placed as the plan says or, when not null, as {@code placement} says. */
  private Enumerator<Object[]> open(DataContext root, ScanServices services,
      ShardSession session, @Nullable Placement placement, @Nullable JoinKeyList keys) {
    final ShardReach reach = ShardReach.of(plan, root, live, placement);
    if (reach == null) {
      services.metrics().reached(0, plan.shards().count());
      return Linq4j.emptyEnumerator();
    }
    plan.guard().check(reach.targets().cardinality(), root,
        () -> reach.texts().texts().get(0).sql());
    services.metrics().reached(reach.targets().cardinality(), plan.shards().count());
    return ScanRunner.run(plan, root, reach, services,
        session.reads(plan.shards().coordinator(), Boolean.TRUE.equals(root.get(LOCK_ROWS))),
        keys);
  }

  /** The number of columns of each row. */
  public int columnCount() {
    return plan.read().reader().columns().size();
  }

  /** The shard names, in the table's shard order. */
  public List<String> shardNames() {
    return plan.shards().names();
  }
}
