package io.shardset.calcite;

import io.shardset.calcite.plan.ShardRules;

import org.apache.calcite.plan.RelOptListener;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.runtime.Hook;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Plans every case of every golden file without a database and compares the plan and the
 * per-shard SQL with the file, exactly. With {@code -Dgolden.update=true} it writes what the
 * planner makes now into the files under {@code src/test/resources/golden} instead; the diff
 * then shows each plan that changed. See docs/golden-plans.md.
 */
class GoldenPlanTest {
  static final Path DIRECTORY = Path.of(System.getProperty("basedir", "."))
      .resolve("src/test/resources/golden");

  /** The golden files' names, sorted. */
  static Stream<String> files() throws IOException {
    try (Stream<Path> files = Files.list(DIRECTORY)) {
      return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".txt"))
          .sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}") @MethodSource("files")
  void plansAreAsRecorded(String name) throws IOException, SQLException {
    final Path path = DIRECTORY.resolve(name);
    final String text = Files.readString(path, StandardCharsets.UTF_8);
    final GoldenFile file = GoldenFile.parse(text);
    final List<GoldenFile.Case> planned = new ArrayList<>();
    try (GoldenPlanner planner = new GoldenPlanner(file)) {
      for (GoldenFile.Case c : file.cases()) {
        planned.add(planner.plan(c));
      }
    }
    final String now = file.render(planned);
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(path, now, StandardCharsets.UTF_8);
      return;
    }
    assertEquals("", differences(file.cases(), planned), name
        + ": plans differ from the file; if the change is intended, regenerate with"
        + " -Dgolden.update=true and review the diff");
    // The cases agree; this also catches a header or layout the renderer would rewrite.
    assertEquals(text, now, name + " is not in the form the test writes");
  }

  /**
   * The comparison can fail: planned without the rule that pushes filters into shard scans,
   * the point query of the consistent-hash file differs from its recorded plan. The same
   * comparison with every rule finds no difference, so the difference is the rule's.
   */
  @Test void aRemovedRuleShowsAsADifference() throws IOException, SQLException {
    final GoldenFile file = GoldenFile.parse(
        Files.readString(DIRECTORY.resolve("consistent-hash.txt"), StandardCharsets.UTF_8));
    final GoldenFile.Case pointQuery = file.cases().get(0);
    assertEquals("point query on the shard key", pointQuery.title());
    try (GoldenPlanner planner = new GoldenPlanner(file)) {
      assertEquals("", differences(List.of(pointQuery), List.of(planner.plan(pointQuery))));
      final RuleRemover remover = new RuleRemover(ShardRules.FILTER);
      final GoldenFile.Case withoutRule;
      try (Hook.Closeable hook = Hook.PLANNER.addThread(
               (RelOptPlanner p) -> p.addListener(remover))) {
        withoutRule = planner.plan(pointQuery);
      }
      assertTrue(remover.removed, "the filter rule was never removed");
      final String differences = differences(List.of(pointQuery), List.of(withoutRule));
      assertTrue(differences.startsWith("case: point query on the shard key\n"), differences);
      assertTrue(withoutRule.shards().startsWith("scan S.CUSTOMERS: 4 of 4 [s0, s1, s2, s3]"),
          withoutRule.shards());
    }
  }

  /**
   * Takes a rule out of a planner as soon as the planner registers its first node: ShardSet
   * adds its rules as the first shard scan is registered, so a rule removed earlier would be
   * added back.
   */
  private static final class RuleRemover implements RelOptListener {
    private final RelOptRule rule;
    boolean removed;

    RuleRemover(RelOptRule rule) {
      this.rule = rule;
    }

    @Override public void relEquivalenceFound(RelEquivalenceEvent event) {
      if (event.getRel() != null && event.getRel().getCluster().getPlanner().removeRule(rule)) {
        removed = true;
      }
    }

    @Override public void ruleAttempted(RuleAttemptedEvent event) {
    }

    @Override public void ruleProductionSucceeded(RuleProductionEvent event) {
    }

    @Override public void relDiscarded(RelDiscardedEvent event) {
    }

    @Override public void relChosen(RelChosenEvent event) {
    }
  }

  /** Each case whose output differs: its title, the recorded output and the new one. */
  static String differences(List<GoldenFile.Case> recorded, List<GoldenFile.Case> planned) {
    final StringBuilder b = new StringBuilder();
    for (int i = 0; i < recorded.size(); i++) {
      final GoldenFile.Case was = recorded.get(i);
      final GoldenFile.Case is = planned.get(i);
      if (!was.plan().equals(is.plan()) || !was.shards().equals(is.shards())) {
        b.append("case: ").append(was.title()).append("\n--- recorded\n").append(was.plan())
            .append('\n').append(was.shards()).append("\n--- planned now\n")
            .append(is.plan()).append('\n').append(is.shards()).append("\n\n");
      }
    }
    return b.toString();
  }
}
