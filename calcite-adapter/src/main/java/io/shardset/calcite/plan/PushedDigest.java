package io.shardset.calcite.plan;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.util.Pair;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The canonical text of a pushed tree, for digests: two shard scans are the same scan exactly
 * when these texts are equal, so nothing in it is abbreviated. It holds each operator's
 * digest attributes (what {@code RelOptUtil.toString} prints at
 * {@link SqlExplainLevel#DIGEST_ATTRIBUTES}) with its inputs' texts nested in place.
 *
 * <p>Rules grow pushed trees one operator at a time, and the cost-based planner fires them
 * thousands of times for a statement with joins; so each spec keeps the texts of all its
 * operators, the text of an operator already rendered for the spec a rule started from is
 * reused rather than rendered again, and no metadata is queried.
 */
final class PushedDigest implements RelWriter {
  private final List<Pair<String, @Nullable Object>> items = new ArrayList<>();
  private final Map<RelNode, String> texts;
  private @Nullable String text;

  private PushedDigest(Map<RelNode, String> texts) {
    this.texts = texts;
  }

  /**
   * The texts of every operator of the tree under {@code root}, by identity; the root's is
   * its canonical text. An operator whose text one of {@code known} holds is not rendered
   * again.
   */
  static Map<RelNode, String> texts(RelNode root, List<Map<RelNode, String>> known) {
    final Map<RelNode, String> texts = new IdentityHashMap<>();
    fill(root, known, texts);
    return texts;
  }

  private static void fill(RelNode rel, List<Map<RelNode, String>> known,
      Map<RelNode, String> texts) {
    if (texts.containsKey(rel)) {
      return; // a subtree reached twice
    }
    for (Map<RelNode, String> map : known) {
      final String given = map.get(rel);
      if (given != null) {
        texts.put(rel, given);
        // Its operators' texts too, for the specs that grow from this one; found, not made.
        rel.getInputs().forEach(input -> fill(input, known, texts));
        return;
      }
    }
    for (RelNode input : rel.getInputs()) {
      fill(input, known, texts);
    }
    final PushedDigest writer = new PushedDigest(texts);
    rel.explain(writer);
    if (writer.text == null) {
      throw new IllegalStateException("no digest written for " + rel.getRelTypeName());
    }
    texts.put(rel, writer.text);
  }

  @Override public void explain(RelNode rel, List<Pair<String, @Nullable Object>> valueList) {
    throw new UnsupportedOperationException("digests are written term by term");
  }

  @Override public SqlExplainLevel getDetailLevel() {
    return SqlExplainLevel.DIGEST_ATTRIBUTES;
  }

  @Override public RelWriter item(String term, @Nullable Object value) {
    items.add(Pair.of(term, value));
    return this;
  }

  @Override public RelWriter done(RelNode node) {
    final StringBuilder sb = new StringBuilder(node.getRelTypeName()).append('(');
    for (int i = 0; i < items.size(); i++) {
      final Pair<String, @Nullable Object> item = items.get(i);
      final Object value = item.right instanceof RelNode input
          ? Objects.requireNonNull(texts.get(input), "input rendered first")
          : item.right;
      sb.append(i == 0 ? "" : ", ").append(item.left).append("=[").append(value).append(']');
    }
    text = sb.append(')').toString();
    return this;
  }
}
