package io.shardset.calcite.prepare;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How statements of each shape ({@link LiteralScanner}) were parameterized, so that a
 * statement of a shape seen before is parameterized without being parsed: a new literal in a
 * statement the plan cache already holds then costs a scan of its text, not Calcite's parser.
 *
 * <p>A template applies to a statement of its shape, under the same plan settings and routing
 * columns, only when every literal it did not parameterize has the value it had, and the
 * literals equal one another where they did (a comparison repeated with one value keeps its
 * literals, see {@link LiteralParameterizer}): everything the parsed statement's
 * parameterization depended on is then the same. Otherwise the statement is parsed, and its
 * parameterization becomes one more template of the shape.
 */
final class LiteralTemplates {
  /** Templates kept per shape: statements of one shape whose kept literals differ (a LIMIT,
   * a partition value) each have one. */
  private static final int PER_SHAPE = 8;

  private final Cache<Key, List<Template>> templates;
  private final AtomicLong hits = new AtomicLong();

  /** What a template is found by. */
  private record Key(String shape, PlanSettings settings, RoutingColumns routing) {
  }

  /**
   * How one statement of a shape was parameterized.
   *
   * @param parameterized the indexes of its literals that became parameters, in order
   * @param spellings every literal as written: those kept stay so in the parameterized text
   * @param sameAs for each literal, the index of the first literal of equal value
   * @param sql the parameterized text
   */
  private record Template(int[] parameterized, List<String> spellings, int[] sameAs,
      String sql) {
    boolean fits(List<String> others, int[] othersSameAs) {
      if (!Arrays.equals(sameAs, othersSameAs)) {
        return false;
      }
      int next = 0;
      for (int i = 0; i < spellings.size(); i++) {
        if (next < parameterized.length && parameterized[next] == i) {
          next++;
        } else if (!spellings.get(i).equals(others.get(i))) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * A statement parameterized by a template.
   *
   * @param sql the parameterized text
   * @param values the values of its parameters, in order
   */
  record Match(String sql, List<Object> values) {
    Match {
      Objects.requireNonNull(sql, "sql");
      values = List.copyOf(values);
    }
  }

  /** Keeps templates for at most {@code maximumSize} shapes. */
  LiteralTemplates(int maximumSize) {
    this.templates = CacheBuilder.newBuilder().maximumSize(maximumSize).build();
  }

  /** The parameterization of {@code sql} by a template of its shape, or null if none fits. */
  @Nullable Match match(PlanSettings settings, RoutingColumns routing, String sql) {
    final LiteralScanner.Scan scan = LiteralScanner.scan(sql);
    if (scan == null) {
      return null;
    }
    final List<Template> known = templates.getIfPresent(
        new Key(scan.shape(), settings, routing));
    if (known == null) {
      return null;
    }
    final List<Object> values = values(scan);
    final List<String> spellings = spellings(sql, scan);
    final int[] sameAs = sameAs(values);
    for (Template template : List.copyOf(known)) {
      if (template.fits(spellings, sameAs)) {
        final List<Object> bound = new ArrayList<>(template.parameterized().length);
        for (int index : template.parameterized()) {
          bound.add(values.get(index));
        }
        hits.incrementAndGet();
        return new Match(template.sql(), bound);
      }
    }
    return null;
  }

  /** Keeps how the parser's parameterization treated {@code sql}, if the scan finds each
   * literal it replaced. */
  void record(PlanSettings settings, RoutingColumns routing, String sql,
      LiteralParameterizer.ParameterizedSql normalized) {
    final LiteralScanner.Scan scan = LiteralScanner.scan(sql);
    if (scan == null || normalized.values().isEmpty()
        || normalized.spans().size() != 2 * normalized.values().size()) {
      return;
    }
    final List<LiteralScanner.Literal> literals = scan.literals();
    final int[] parameterized = new int[normalized.values().size()];
    int from = 0;
    for (int k = 0; k < parameterized.length; k++) {
      final int start = normalized.spans().get(2 * k);
      final int end = normalized.spans().get(2 * k + 1);
      int index = from;
      while (index < literals.size() && literals.get(index).start() < start) {
        index++;
      }
      if (index == literals.size() || literals.get(index).start() != start
          || literals.get(index).end() != end
          || !literals.get(index).value().equals(normalized.values().get(k))) {
        return;
      }
      parameterized[k] = index;
      from = index + 1;
    }
    final List<String> spellings = spellings(sql, scan);
    final int[] sameAs = sameAs(values(scan));
    final Template template = new Template(parameterized, spellings, sameAs, normalized.sql());
    final Key key = new Key(scan.shape(), settings, routing);
    final List<Template> known = templates.asMap().computeIfAbsent(key,
        k -> new CopyOnWriteArrayList<>());
    if (known.size() < PER_SHAPE && known.stream().noneMatch(t -> t.fits(spellings, sameAs))) {
      known.add(template);
    }
  }

  /** How many statements a template parameterized. */
  long hits() {
    return hits.get();
  }

  /** Drops every template. */
  void clear() {
    templates.invalidateAll();
  }

  private static List<Object> values(LiteralScanner.Scan scan) {
    final List<Object> values = new ArrayList<>(scan.literals().size());
    for (LiteralScanner.Literal literal : scan.literals()) {
      values.add(literal.value());
    }
    return values;
  }

  private static List<String> spellings(String sql, LiteralScanner.Scan scan) {
    final List<String> spellings = new ArrayList<>(scan.literals().size());
    for (LiteralScanner.Literal literal : scan.literals()) {
      spellings.add(sql.substring(literal.start(), literal.end()));
    }
    return spellings;
  }

  private static int[] sameAs(List<Object> values) {
    final int[] sameAs = new int[values.size()];
    final Map<Object, Integer> first = new HashMap<>();
    for (int i = 0; i < values.size(); i++) {
      final Integer earlier = first.putIfAbsent(values.get(i), i);
      sameAs[i] = earlier == null ? i : earlier;
    }
    return sameAs;
  }
}
