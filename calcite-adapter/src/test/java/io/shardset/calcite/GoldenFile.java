package io.shardset.calcite;

import io.shardset.model.ColumnInfo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A golden plan file: a header that declares a schema, then cases of SQL in and plan out.
 *
 * <pre>
 * # comments
 * === model
 * { the schema's operand, as in a model file }
 * === columns
 * ORDERS: ORDER_ID BIGINT NOT NULL, AMOUNT DECIMAL(12, 2)
 * === case: a title
 * SELECT ...
 * --- params
 * [42]
 * --- plan
 * EnumerableShardScan(...)
 * --- shards
 * ...
 * </pre>
 *
 * <p>{@code --- params} is optional. The plan and shards sections are output: {@link #render}
 * writes them anew and keeps everything else as it was read.
 */
record GoldenFile(String header, String operand, Map<String, List<ColumnInfo>> columns,
    List<Case> cases) {
  static final String CASE = "=== case: ";
  private static final String MODEL = "=== model";
  private static final String COLUMNS = "=== columns";
  private static final String PARAMS = "--- params";
  private static final String PLAN = "--- plan";
  private static final String SHARDS = "--- shards";

  /**
   * One query and what the planner makes of it.
   *
   * @param params the JSON array of parameter values to show execution-time pruning for,
   *     or null
   */
  record Case(String title, String sql, String params, String plan, String shards) {
    Case withOutput(String newPlan, String newShards) {
      return new Case(title, sql, params, newPlan, newShards);
    }
  }

  static GoldenFile parse(String text) {
    final List<String> lines = text.lines().toList();
    int i = 0;
    final StringBuilder header = new StringBuilder();
    while (i < lines.size() && !lines.get(i).startsWith(CASE)) {
      header.append(lines.get(i++)).append('\n');
    }
    final String operand = section(header.toString(), MODEL);
    final Map<String, List<ColumnInfo>> columns = new LinkedHashMap<>();
    for (String line : section(header.toString(), COLUMNS).lines().toList()) {
      if (line.isBlank()) {
        continue;
      }
      final int colon = line.indexOf(':');
      final List<ColumnInfo> declared = new ArrayList<>();
      for (String column : line.substring(colon + 1).split(",(?![^(]*\\))")) {
        declared.add(DeclaredShardMetadata.column(column));
      }
      columns.put(line.substring(0, colon).trim(), declared);
    }
    final List<Case> cases = new ArrayList<>();
    while (i < lines.size()) {
      final String title = lines.get(i++).substring(CASE.length());
      final Map<String, StringBuilder> parts = new LinkedHashMap<>();
      StringBuilder part = parts.computeIfAbsent("sql", k -> new StringBuilder());
      while (i < lines.size() && !lines.get(i).startsWith(CASE)) {
        final String line = lines.get(i++);
        if (line.equals(PARAMS) || line.equals(PLAN) || line.equals(SHARDS)) {
          part = parts.computeIfAbsent(line, k -> new StringBuilder());
        } else {
          part.append(line).append('\n');
        }
      }
      final StringBuilder params = parts.get(PARAMS);
      cases.add(new Case(title, text(parts.get("sql")),
          params == null ? null : text(params), text(parts.get(PLAN)),
          text(parts.get(SHARDS))));
    }
    return new GoldenFile(header.toString(), operand, columns, cases);
  }

  /** The file with these cases' output: the header and inputs as read. */
  String render(List<Case> newCases) {
    final StringBuilder b = new StringBuilder(header);
    for (Case c : newCases) {
      b.append(CASE).append(c.title()).append('\n').append(c.sql()).append('\n');
      if (c.params() != null) {
        b.append(PARAMS).append('\n').append(c.params()).append('\n');
      }
      b.append(PLAN).append('\n').append(c.plan()).append('\n');
      b.append(SHARDS).append('\n').append(c.shards()).append('\n');
      b.append('\n');
    }
    return b.toString();
  }

  /** The text of a header section: its lines up to the next section. */
  private static String section(String header, String name) {
    final int start = header.indexOf(name + "\n");
    if (start < 0) {
      throw new IllegalArgumentException("the header has no '" + name + "' section");
    }
    final int from = start + name.length() + 1;
    final int end = header.indexOf("\n===", from - 1);
    return header.substring(from, end < 0 ? header.length() : end + 1);
  }

  /** A section's text without the blank lines that separate cases. */
  private static String text(StringBuilder part) {
    return part == null ? "" : part.toString().strip();
  }
}
