package io.shardset.bench;

import io.shardset.bench.shardingsphere.ShardingSphereSystem;
import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.prepare.PlanCache;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The child JVM of w18 ({@link TpchWorkload}): opens one system's connection and, from a
 * given query on, prepares each TPC-H query once (its plan time) and executes and reads it a
 * number of times (its run times), printing a line after each step, so that the parent can
 * kill it when a step takes too long and go on with the next query in a new child. A planner
 * cannot be interrupted, and a thread left planning would slow every later measurement.
 *
 * <p>Lines: {@code ready}, then per query {@code plan Q NANOS}, {@code run Q NANOS ROWS} (one
 * per execution) or {@code error Q MESSAGE} (the failure's message, {@link #oneLine}). ShardSet
 * (X) then plans the queries it planned {@link #REPLAN_PASSES} times more, its plan cache
 * emptied before each, so that the JIT compiles the planner as in a server that has run a
 * while: {@code replan Q NANOS} per query and pass, and {@code done}; before that, it runs
 * them once on a second connection and says how many plans each made: {@code second Q PLANS}.
 */
public final class TpchProbe {
  /** The file suffix of the specification's text where the suite keeps two texts. */
  private static final Map<Integer, String> PUBLISHED_VARIANT = Map.of(1, "-h2", 19, "-calcite");

  static final String READY = "ready";
  static final String PLAN = "plan";
  static final String RUN = "run";
  static final String ERROR = "error";
  static final String REPLAN = "replan";
  static final String SECOND = "second";
  static final String DONE = "done";
  /** How many times X plans the queries again. */
  static final int REPLAN_PASSES = 5;
  private static final Pattern COMMENT_LINES = Pattern.compile("(?m)^--.*\\R");
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  /** The characters of a long message's start and end that {@link #oneLine} keeps. */
  private static final int KEPT = 100;
  /** The number of TPC-H queries. */
  static final int QUERIES = 22;

  private TpchProbe() {
  }

  /**
   * The published text of query {@code number}, from the adapter's TPC-H resources: qNN.sql,
   * or where the suite keeps two texts, the specification's (Q1's is q01-h2.sql, since the
   * Calcite variant takes its means over DOUBLE; Q19's is q19-calcite.sql, since the unsharded
   * H2 reference gets its join condition pulled out of the OR); without the comment lines that
   * head each file, which are no part of the query and would be all that a parser's error
   * message quotes.
   */
  static String sql(int number) {
    return COMMENT_LINES.matcher(resource(number)).replaceAll("");
  }

  private static String resource(int number) {
    final String name = String.format(Locale.ROOT, "/io/shardset/tpch/q%02d%s.sql", number,
        PUBLISHED_VARIANT.getOrDefault(number, ""));
    final InputStream in = TpchProbe.class.getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException("no text of TPC-H query " + number + ": " + name);
    }
    try (InputStream text = in) {
      return new String(text.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Arguments: system (L, N, S, X), backend, scale factor, H2 folder, first query, runs. */
  public static void main(String[] args) throws Exception {
    final String system = args[0];
    final TpchDatabase db = new TpchDatabase(args[1], Double.parseDouble(args[2]),
        Path.of(args[3]));
    final int first = Integer.parseInt(args[4]);
    final int runs = Integer.parseInt(args[5]);
    ShardingSphereSystem shardingSphere = null;
    final Connection connection;
    switch (system) {
    case "L" -> connection = db.unsharded().connect();
    case "N" -> connection = db.connectUnionAll();
    case "X" -> connection = db.connectShardSet();
    case "S" -> {
      shardingSphere = ShardingSphereSystem.open(db.shardingSphereYaml());
      connection = shardingSphere.connect();
    }
    default -> throw new IllegalArgumentException("unknown system " + system);
    }
    try (Connection c = connection) {
      // The first statement of a JVM pays for loading classes; none of the queries should.
      execute(c, "SELECT COUNT(*) FROM NATION");
      System.out.println(READY);
      final List<Integer> planned = new ArrayList<>();
      for (int q = first; q <= QUERIES; q++) {
        try {
          final String sql = sql(q);
          final long start = System.nanoTime();
          try (PreparedStatement statement = c.prepareStatement(sql)) {
            System.out.println(PLAN + " " + q + " " + (System.nanoTime() - start));
            planned.add(q);
            for (int i = 0; i < runs; i++) {
              final long runStart = System.nanoTime();
              final long rows = readAll(statement);
              System.out.println(RUN + " " + q + " " + (System.nanoTime() - runStart) + " "
                  + rows);
            }
          }
        } catch (SQLException | RuntimeException e) {
          System.out.println(ERROR + " " + q + " " + oneLine(e));
        }
      }
      if (system.equals("X")) {
        secondConnection(db, c, planned, runs);
        replan(c, planned);
      }
    } finally {
      if (shardingSphere != null) {
        shardingSphere.close();
      }
    }
  }

  /**
   * Runs each planned query on a second connection of the process, as a server's next
   * session would, and prints how many plans its prepare made: {@code second Q PLANS}.
   */
  private static void secondConnection(TpchDatabase db, Connection first, List<Integer> queries,
      int runs) throws SQLException {
    final PlanCache cache = planCache(first);
    try (Connection second = db.connectShardSet()) {
      for (int q : queries) {
        final long plans = cache.plans();
        try (PreparedStatement statement = second.prepareStatement(sql(q))) {
          System.out.println(SECOND + " " + q + " " + (cache.plans() - plans));
          if (runs > 0) {
            readAll(statement);
          }
        }
      }
    }
  }

  /** Plans the queries again, {@link #REPLAN_PASSES} times, each with an empty plan cache,
   * and prints how long each took. */
  private static void replan(Connection c, List<Integer> queries) throws SQLException {
    final PlanCache cache = planCache(c);
    for (int pass = 0; pass < REPLAN_PASSES; pass++) {
      for (int q : queries) {
        cache.invalidate(c);
        final long start = System.nanoTime();
        try (PreparedStatement statement = c.prepareStatement(sql(q))) {
          System.out.println(REPLAN + " " + q + " " + (System.nanoTime() - start));
        }
      }
    }
    System.out.println(DONE);
  }

  /** The plan cache of the driver of a {@code jdbc:shardset:} connection. */
  private static PlanCache planCache(Connection c) throws SQLException {
    return ((ShardSetDriver) DriverManager.getDriver(c.getMetaData().getURL())).planCache();
  }

  /**
   * A failure's message on one line, its whitespace collapsed, and if long its start and end
   * only: ShardingSphere's syntax errors quote the whole statement before saying where it
   * failed, so the first line alone would be the statement's first word.
   */
  static String oneLine(Throwable e) {
    final String message = e.getMessage();
    if (message == null || message.isBlank()) {
      return e.getClass().getName();
    }
    final String line = WHITESPACE.matcher(message.strip()).replaceAll(" ");
    return line.length() <= 2 * KEPT ? line
        : line.substring(0, KEPT) + " ... " + line.substring(line.length() - KEPT);
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      readAll(s);
    }
  }

  /** Executes and reads every value of every row; returns the number of rows. */
  private static long readAll(PreparedStatement statement) throws SQLException {
    try (ResultSet rs = statement.executeQuery()) {
      return Workloads.readRows(rs);
    }
  }
}
