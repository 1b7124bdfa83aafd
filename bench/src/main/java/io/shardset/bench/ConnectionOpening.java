package io.shardset.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * w19: how long opening a {@code jdbc:shardset:} connection takes as the shard count grows,
 * over {@link TinyShards}: {@code DriverManager.getConnection} alone, and from calling it to the
 * first answer of a routed point query (which also counts whatever the driver leaves to first
 * use, so that reading metadata lazily cannot hide the cost). Each run opens a connection,
 * queries, and closes it; the first run of a shard count is reported on its own, since it
 * also loads classes and, for the first count, warms the JVM. Each shard count is measured
 * with the model's default {@code "checkShards": "atOpen"} (every shard's metadata read when
 * the connection opens) and with {@code "onFirstUse"} (one shard read, the others checked when
 * a statement first reaches them).
 */
public final class ConnectionOpening {
  /** The first query: routed to one shard by its key. */
  static final String FIRST_QUERY = "SELECT COUNT(*) FROM ORDERS WHERE CUSTOMER_ID = 1";
  /** The target: the median time to the first answer at the most shards, in ms. */
  static final double TARGET_MILLIS = 200;

  /** The settings of {@code checkShards} measured, the default first. */
  static final List<String> CHECKS = List.of("atOpen", "onFirstUse");

  /** The times of one shard count and {@code checkShards} setting. */
  public record Times(int shards, String check, double firstConnectMillis,
      double firstAnswerMillis, Stats connect, Stats answer) {
    public Times {
      Objects.requireNonNull(check, "check");
      Objects.requireNonNull(connect, "connect");
      Objects.requireNonNull(answer, "answer");
    }
  }

  private ConnectionOpening() {
  }

  /** Opens {@code 1 + runs} connections over the shards and times each, with each setting of
   * {@code checkShards}. */
  static List<Times> measure(TinyShards shards, int runs) throws SQLException {
    final List<Times> times = new ArrayList<>();
    for (String check : CHECKS) {
      times.add(measure(shards, check, runs));
    }
    return times;
  }

  private static Times measure(TinyShards shards, String check, int runs) throws SQLException {
    final Properties info = new Properties();
    final String setting = "\"checkShards\": \"" + check + "\", ";
    info.setProperty("model", "inline:" + Models.shardSet(shards.urls(), 1)
        .replace("\"operand\": {", "\"operand\": {" + setting));
    final long[] connect = new long[runs];
    final long[] answer = new long[runs];
    long firstConnect = 0;
    long firstAnswer = 0;
    for (int i = -1; i < runs; i++) {
      final long start = System.nanoTime();
      final long opened;
      try (Connection c = DriverManager.getConnection("jdbc:shardset:", info)) {
        opened = System.nanoTime();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(FIRST_QUERY)) {
          rs.next();
        }
        final long answered = System.nanoTime();
        if (i < 0) {
          firstConnect = opened - start;
          firstAnswer = answered - start;
        } else {
          connect[i] = opened - start;
          answer[i] = answered - start;
        }
      }
    }
    return new Times(shards.urls().size(), check, firstConnect / 1e6, firstAnswer / 1e6,
        Stats.of(connect), Stats.of(answer));
  }

  /** The report's table of these times, one row per shard count. */
  public static ResultTable table(List<Times> times) {
    final List<List<String>> rows = new ArrayList<>();
    for (Times t : times) {
      rows.add(List.of(Integer.toString(t.shards()), t.check(),
          Report.millis(t.firstConnectMillis()),
          Report.millis(t.firstAnswerMillis()), Report.millis(t.connect().medianMillis()),
          Report.millis(t.connect().p99Millis()), Report.millis(t.answer().medianMillis()),
          Report.millis(t.answer().p99Millis()), Integer.toString(t.answer().count())));
    }
    return new ResultTable("w19 opening a jdbc:shardset: connection",
        "Tiny in-memory H2 shards; \"connect\" is DriverManager.getConnection alone, \"to answer\""
        + " runs from calling it to the first answer of `" + FIRST_QUERY + "`; the first"
        + " opening of each shard count and setting is apart from the median and p99 of the"
        + " later ones. checkShards atOpen (the default) reads every shard's metadata when the"
        + " connection opens; onFirstUse reads each table's first shard and checks each other"
        + " shard when a statement first reaches it.",
        List.of("shards", "checkShards", "first connect ms", "first to answer ms",
            "connect median ms", "connect p99 ms", "to answer median ms", "to answer p99 ms",
            "runs"), rows);
  }

  /** The target lines: the median to the first answer at the most shards measured, one per
   * setting of {@code checkShards}. */
  public static List<String> targets(List<Times> times) {
    final int most = times.stream().mapToInt(Times::shards).max()
        .orElseThrow(() -> new IllegalArgumentException("no shard counts measured"));
    return times.stream().filter(t -> t.shards() == most)
        .map(t -> TargetCheck.atMost(String.format(Locale.ROOT,
            "w19 open a connection to first answer at %d shards, checkShards %s, median", most,
            t.check()), t.answer().medianMillis(), TARGET_MILLIS, "ms"))
        .toList();
  }
}
