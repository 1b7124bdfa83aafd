package io.shardset.calcite;

import io.shardset.calcite.plan.EnumerableShardScan;
import io.shardset.calcite.plan.ShardPrograms;
import io.shardset.calcite.plan.ShardScanSpec;
import io.shardset.calcite.runtime.ShardTexts;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.Holder;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Plans the cases of a {@link GoldenFile} against its declared schema, with no shard
 * connection: each plan as EXPLAIN shows it, and each shard scan's shards with the SQL each
 * would receive.
 */
final class GoldenPlanner implements AutoCloseable {
  /** The schema's name in every golden file. */
  static final String SCHEMA = "S";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Connection connection;

  /** A planner over the file's schema as its header declares it. */
  GoldenPlanner(GoldenFile file) throws SQLException {
    this(declaredSchema(file));
  }

  /** A planner over a schema built some other way, such as from real shards. */
  GoldenPlanner(ShardSchema schema) throws SQLException {
    final Properties info = new Properties();
    // As jdbc:shardset: connects. Plans are of the literal text: on jdbc:shardset: EXPLAIN
    // shows the plan cache's, with parameters where its key literals were.
    info.setProperty("typeSystem", ShardTypeSystem.class.getName() + "#INSTANCE");
    connection = DriverManager.getConnection("jdbc:calcite:", info);
    connection.unwrap(CalciteConnection.class).getRootSchema().add(SCHEMA, schema);
    connection.setSchema(SCHEMA);
  }

  private static ShardSchema declaredSchema(GoldenFile file) {
    final ShardSetModel model = ModelParser.parse(SCHEMA, operand(file), name -> null);
    try (ShardMetadata metadata = new DeclaredShardMetadata(file.columns())) {
      return ShardSchema.create(model, null, metadata, ShardSetRuntime.get().openScans());
    }
  }

  /** The file's model section, as a model file's operand. */
  static Map<String, Object> operand(GoldenFile file) {
    return json(file.operand());
  }

  /**
   * The case with the plan and shards the planner makes of its SQL now: the plan as EXPLAIN
   * prints it, the shards from the same plan, which Calcite's planning program hands over
   * (EXPLAIN stops before any hook on the physical plan).
   */
  GoldenFile.Case plan(GoldenFile.Case c) throws SQLException {
    final AtomicReference<RelNode> planned = new AtomicReference<>();
    try (Hook.Closeable hook = capture(planned);
         Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + c.sql())) {
      rs.next();
      return c.withOutput(rs.getString(1).strip(), shards(planned.get(), params(c.params())));
    }
  }

  /** The shard scans of the plan of a statement, prepared as an application would. */
  List<EnumerableShardScan> scans(String sql) throws SQLException {
    final AtomicReference<RelNode> planned = new AtomicReference<>();
    try (Hook.Closeable hook = capture(planned);
         PreparedStatement p = connection.prepareStatement(sql)) {
      final List<EnumerableShardScan> scans = new ArrayList<>();
      collect(planned.get(), scans);
      return scans;
    }
  }

  /** Keeps the physical plan the planning program makes (EXPLAIN stops before any hook on
   * the physical plan). */
  private static Hook.Closeable capture(AtomicReference<RelNode> planned) {
    final Program standard = ShardPrograms.standard();
    final Program capturing = (planner, rel, traits, materializations, lattices) -> {
      final RelNode best = standard.run(planner, rel, traits, materializations, lattices);
      planned.set(best);
      return best;
    };
    return Hook.PROGRAM.addThread((Holder<Program> program) -> program.set(capturing));
  }

  /** Each shard scan of a plan, in plan order: the shards it reaches and the SQL each
   * receives. */
  private static String shards(RelNode rel, List<Object> params) {
    final List<EnumerableShardScan> scans = new ArrayList<>();
    collect(rel, scans);
    final StringBuilder b = new StringBuilder();
    for (EnumerableShardScan scan : scans) {
      final ShardScanSpec spec = scan.spec();
      final ShardTable table = spec.table();
      BitSet reached = spec.selection().staticShards();
      b.append("scan ").append(table.qualifiedName()).append(": ");
      if (reached != null) {
        b.append(describe(table, reached));
      } else if (params.isEmpty()) {
        b.append("shards chosen at execution; any of them");
        reached = new BitSet();
        reached.set(0, table.shardCount());
      } else {
        reached = spec.condition().shards(table.router(), params::get);
        b.append("shards chosen at execution; with parameters ").append(params).append(": ")
            .append(describe(table, reached));
      }
      b.append('\n');
      for (ShardTexts.Text sql : spec.sqls().texts()) {
        final BitSet shards = sql.shards();
        shards.and(reached);
        shards.stream().forEach(i -> b.append("  ").append(table.shardName(i)).append(": ")
            .append(sql.sql()).append('\n'));
      }
    }
    return b.toString().strip();
  }

  private static String describe(ShardTable table, BitSet shards) {
    final List<String> names = new ArrayList<>();
    shards.stream().forEach(i -> names.add(table.shardName(i)));
    return shards.cardinality() + " of " + table.shardCount() + " " + names;
  }

  private static void collect(RelNode rel, List<EnumerableShardScan> scans) {
    if (rel instanceof EnumerableShardScan scan) {
      scans.add(scan);
    }
    rel.getInputs().forEach(input -> collect(input, scans));
  }

  private static Map<String, Object> json(String text) {
    try {
      return JSON.readValue(text, new TypeReference<Map<String, Object>>() { });
    } catch (IOException e) {
      throw new IllegalArgumentException("the model section is not JSON: " + e.getMessage(), e);
    }
  }

  private static List<Object> params(String text) {
    if (text == null) {
      return List.of();
    }
    try {
      return JSON.readValue(text, new TypeReference<List<Object>>() { });
    } catch (IOException e) {
      throw new IllegalArgumentException("params are not a JSON array: " + e.getMessage(), e);
    }
  }

  @Override public void close() throws SQLException {
    connection.close();
  }
}
