package io.shardset.calcite;

import io.shardset.calcite.plan.EnumerableShardScan;
import io.shardset.calcite.plan.ShardScanSpec;
import io.shardset.calcite.runtime.ShardStatements;
import io.shardset.calcite.runtime.ShardTexts;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;
import io.shardset.topology.LiveModels;
import io.shardset.topology.LiveSource;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tests that the statements a scan prepares, filled in at execution with the subpartitions
 * query parameters select and the move tables of a resharding in progress, give every shard
 * the text Calcite's SQL writer gives it from the plan; and that a prepared scan holds no
 * planner object.
 */
class StatementTemplateTest {
  private static final String MODEL = """
      === model
      {
        "shards": [
          {"name": "s0", "jdbcUrl": "jdbc:postgresql://db0/pay"},
          {"name": "s1", "jdbcUrl": "jdbc:postgresql://db1/pay"},
          {"name": "s2", "jdbcUrl": "jdbc:h2:mem:pay2"}
        ],
        "tables": [
          {"name": "PAYMENTS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"],
           "subpartitions": {"column": "PAID_ON", "physicalName": "PAYMENTS_{name}",
             "ranges": [{"name": "y2022", "to": "2023-01-01"},
                        {"name": "y2023", "from": "2023-01-01", "to": "2024-01-01"},
                        {"name": "y2024", "from": "2024-01-01"}]}},
          {"name": "CUSTOMERS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"]},
          {"name": "REGIONS", "method": "duplicated"}
        ]
      }
      === columns
      """ + "PAYMENTS: PAYMENT_ID BIGINT NOT NULL, CUSTOMER_ID BIGINT NOT NULL,"
      + " PAID_ON DATE NOT NULL, AMOUNT DECIMAL(12, 2)\n" + """
      CUSTOMERS: CUSTOMER_ID BIGINT NOT NULL, NAME VARCHAR(20), REGION VARCHAR(4)
      REGIONS: CODE VARCHAR(4) NOT NULL, NAME VARCHAR(20)
      """;

  private static final String[] QUERIES = {
      "SELECT PAYMENT_ID FROM PAYMENTS WHERE PAID_ON < ?",
      "SELECT COUNT(*) FROM PAYMENTS WHERE PAID_ON >= ?",
      "SELECT CUSTOMER_ID, SUM(AMOUNT) FROM PAYMENTS WHERE PAID_ON < ? GROUP BY CUSTOMER_ID"
          + " ORDER BY 1 LIMIT 5",
      "SELECT a.PAYMENT_ID, b.PAYMENT_ID FROM PAYMENTS a JOIN PAYMENTS b"
          + " ON a.CUSTOMER_ID = b.CUSTOMER_ID WHERE a.PAID_ON >= ?",
      "SELECT a.PAYMENT_ID, b.AMOUNT FROM PAYMENTS a JOIN PAYMENTS b"
          + " ON a.CUSTOMER_ID = b.CUSTOMER_ID AND a.PAYMENT_ID = b.PAYMENT_ID"
          + " WHERE a.PAID_ON >= ? AND b.PAID_ON < DATE '2023-01-01'",
      "SELECT c.NAME, p.AMOUNT FROM CUSTOMERS c JOIN PAYMENTS p"
          + " ON c.CUSTOMER_ID = p.CUSTOMER_ID WHERE p.PAID_ON < ?",
      "SELECT p.AMOUNT, c.NAME FROM PAYMENTS p JOIN CUSTOMERS c"
          + " ON c.CUSTOMER_ID = p.CUSTOMER_ID WHERE p.PAID_ON < ?",
      "SELECT c.NAME, d.NAME FROM CUSTOMERS c JOIN CUSTOMERS d ON c.CUSTOMER_ID = d.CUSTOMER_ID"
          + " WHERE c.CUSTOMER_ID = ?",
      "SELECT c.NAME, r.NAME FROM CUSTOMERS c JOIN REGIONS r ON c.REGION = r.CODE",
      "SELECT c.NAME FROM CUSTOMERS c WHERE c.CUSTOMER_ID IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,"
          + " 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22) AND EXISTS (SELECT 1 FROM CUSTOMERS d"
          + " WHERE d.CUSTOMER_ID = c.CUSTOMER_ID AND d.NAME = 'x')",
  };

  @TempDir Path folder;

  /** A planner over the schema; one that follows a model file when {@code live}. */
  private GoldenPlanner planner(boolean live) throws Exception {
    final GoldenFile file = GoldenFile.parse(MODEL);
    final Map<String, Object> operand = new HashMap<>(GoldenPlanner.operand(file));
    final ShardSetModel model = ModelParser.parse(GoldenPlanner.SCHEMA, operand, name -> null);
    LiveSource source = null;
    if (live) {
      final Path path = folder.resolve("model-" + System.nanoTime() + ".json");
      Files.writeString(path, "{}");
      operand.put("modelUri", path.toString());
      source = new LiveSource(new LiveModels().of(GoldenPlanner.SCHEMA, operand, model), 1);
    }
    try (ShardMetadata metadata = new DeclaredShardMetadata(file.columns())) {
      return new GoldenPlanner(ShardSchema.create(model, source, metadata,
          ShardSetRuntime.get().openScans()));
    }
  }

  @ParameterizedTest @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
  void filledStatementsAreWhatTheWriterWritesForEveryChoice(int query) throws Exception {
    int compared = 0;
    int joined = 0;
    for (boolean live : new boolean[] {false, true}) {
      try (GoldenPlanner planner = planner(live)) {
        for (EnumerableShardScan scan : planner.scans(QUERIES[query])) {
          compared += compareEveryChoice(scan.spec(), live);
          joined = Math.max(joined, scannedTables(scan.spec().pushed()).size());
        }
      }
    }
    assertTrue(compared > 0);
    // The joins (and the co-located EXISTS, a semi join) run inside the shards, so that
    // templates have several scans to fill.
    assertEquals(QUERIES[query].contains(" JOIN ") || QUERIES[query].contains("EXISTS") ? 2 : 1,
        joined, QUERIES[query]);
  }

  /** Compares filled and written texts for every selection of subpartitions, set of move
   * readers and set of carried tables; returns the number of texts compared. */
  private static int compareEveryChoice(ShardScanSpec spec, boolean live) {
    final ShardStatements statements = spec.statements();
    final List<ShardTable> scanned = scannedTables(spec.pushed());
    final List<ShardTable> tables = new ArrayList<>(new LinkedHashSet<>(scanned));
    final int shards = spec.table().shardCount();
    final List<BitSet> selections = new ArrayList<>();
    if (spec.subpartitions().isDynamic()) {
      for (long bits = 0; bits < 8; bits++) {
        selections.add(BitSet.valueOf(new long[] {bits}));
      }
    } else {
      selections.add(null);
    }
    final List<BitSet> readerSets = new ArrayList<>(List.of(new BitSet()));
    if (live) {
      readerSets.add(BitSet.valueOf(new long[] {1}));
      final BitSet all = new BitSet();
      all.set(0, shards);
      readerSets.add(all);
    }
    int compared = 0;
    for (BitSet chosen : selections) {
      for (BitSet readers : readerSets) {
        for (long carriedTables = 0; carriedTables < (live ? 1L << tables.size() : 1);
             carriedTables++) {
          final BitSet which = BitSet.valueOf(new long[] {carriedTables});
          final BitSet carried = new BitSet();
          for (int scan = 0; scan < scanned.size(); scan++) {
            if (which.get(tables.indexOf(scanned.get(scan)))) {
              carried.set(scan);
            }
          }
          final ShardTexts written = spec.sqls(chosen, readers,
              t -> which.get(tables.indexOf(t)));
          final ShardTexts filled = statements.texts(chosen, readers, carried);
          for (int i = 0; i < shards; i++) {
            final String what = spec + " on shard " + i + ", subpartitions " + chosen
                + ", move readers " + readers + ", carried scans " + carried;
            assertEquals(written.has(i), filled.has(i), what);
            if (written.has(i)) {
              assertEquals(written.of(i).sql(), filled.of(i).sql(), what);
              assertEquals(written.of(i).parameters(), filled.of(i).parameters(), what);
              compared++;
            }
          }
        }
      }
    }
    return compared;
  }

  private static List<ShardTable> scannedTables(RelNode pushed) {
    final List<ShardTable> tables = new ArrayList<>();
    pushed.accept(new RelShuttleImpl() {
      @Override public RelNode visit(TableScan scan) {
        tables.add(scan.getTable().unwrap(ShardTable.class));
        return scan;
      }
    });
    return tables;
  }

  @Test void aPreparedScanHoldsNoPlannerObject() throws Exception {
    for (boolean live : new boolean[] {false, true}) {
      try (GoldenPlanner planner = planner(live)) {
        for (String sql : QUERIES) {
          for (EnumerableShardScan scan : planner.scans(sql)) {
            final Set<Class<?>> reached = reachableClasses(scan.query());
            for (Class<?> forbidden : List.of(RelNode.class, RelOptCluster.class,
                RelOptPlanner.class, RexNode.class)) {
              assertFalse(reached.stream().anyMatch(forbidden::isAssignableFrom),
                  () -> sql + " reaches a " + forbidden.getSimpleName() + ": " + reached);
            }
            assertTrue(reached.contains(ShardStatements.class), sql);
            // The walk finds planner objects where there are some: in the plan's own spec.
            assertTrue(reachableClasses(scan.spec()).stream()
                .anyMatch(RelOptPlanner.class::isAssignableFrom), sql);
          }
        }
      }
    }
  }

  /** The classes of every object reachable from {@code root} through fields, array elements
   * and the elements of JDK collections; each object visited once. */
  private static Set<Class<?>> reachableClasses(Object root) throws IllegalAccessException {
    final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    final Set<Class<?>> classes = new LinkedHashSet<>();
    final Deque<Object> pending = new ArrayDeque<>(List.of(root));
    while (!pending.isEmpty()) {
      final Object o = pending.pop();
      if (!seen.add(o)) {
        continue;
      }
      final Class<?> type = o.getClass();
      classes.add(type);
      if (type.isArray()) {
        if (!type.getComponentType().isPrimitive()) {
          for (int i = 0; i < Array.getLength(o); i++) {
            push(pending, Array.get(o, i));
          }
        }
      } else if (o instanceof Collection<?> collection && isJdk(type)) {
        collection.forEach(e -> push(pending, e));
      } else if (o instanceof Map<?, ?> map && isJdk(type)) {
        map.forEach((k, v) -> {
          push(pending, k);
          push(pending, v);
        });
      } else if (!isJdk(type)) {
        for (Class<?> c = type; c != null && !isJdk(c); c = c.getSuperclass()) {
          for (Field field : c.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
              continue;
            }
            field.setAccessible(true);
            push(pending, field.get(o));
          }
        }
      }
    }
    return classes;
  }

  private static void push(Deque<Object> pending, Object o) {
    if (o != null) {
      pending.push(o);
    }
  }

  /** Classes whose fields the JDK does not open to reflection; their contents are reached
   * through their API where they hold objects (collections, maps), else not at all. */
  private static boolean isJdk(Class<?> type) {
    final String name = type.getName();
    return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
        || name.startsWith("sun.") || name.startsWith("com.sun.");
  }
}
