package io.shardset.cli.load;

import io.shardset.calcite.ShardTable;
import io.shardset.execution.ShardException;
import io.shardset.load.ShardedInserter;
import io.shardset.model.Subpartitioning;
import io.shardset.routing.ShardRouter;
import io.shardset.topology.ShardSite;

import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Loads CSV files into a sharded table: each record is converted and routed completely before
 * any of it is sent, then written to its shard (every shard, for a duplicated table) in
 * batches that are committed shard by shard.
 */
public final class CsvLoader {
  private final ShardTable table;
  private final LoadOptions options;
  private final LongSupplier nanoClock;

  public CsvLoader(ShardTable table, LoadOptions options, LongSupplier nanoClock) {
    this.table = Objects.requireNonNull(table, "table");
    this.options = Objects.requireNonNull(options, "options");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
  }

  /**
   * Opens the inserter that writes the rows: plain inserts after a truncate or for
   * {@code --append}, else upserts by the table's primary key. Decided before anything is
   * written.
   *
   * @throws IllegalStateException for an upsert into a table without a primary key (or whose
   *     shards do not declare the same one), or on a database ShardSet knows no upsert for
   */
  private ShardedInserter openInserter() {
    if (options.mode() != WriteMode.UPSERT) {
      return ShardedInserter.open(table.sharded(), options.batchSize());
    }
    final List<String> key = table.layout().primaryKey();
    if (key.isEmpty()) {
      throw new IllegalStateException("table " + table.qualifiedName()
          + " has no primary key (the same on every shard), so loading a file twice would"
          + " duplicate its rows; give --truncate to empty the table first, or --append to"
          + " insert anyway");
    }
    return ShardedInserter.upserting(table.sharded(), options.batchSize(),
        key.stream().map(table.layout()::columnIndex).toList());
  }

  /**
   * Loads the files in order.
   *
   * @param files the files, each with the name reports give it
   * @param progress told of rows and bytes read as the load goes
   */
  public LoadResult load(List<Path> files, ProgressReporter progress) {
    final long start = nanoClock.getAsLong();
    if (options.mode() == WriteMode.TRUNCATE) {
      truncate();
    }
    final BadRows bad = new BadRows(options.listLimit());
    final Counter counter = new Counter();
    BadRow stoppedAt = null;
    long[] perShard;
    try (ShardedInserter inserter = openInserter()) {
      for (Path file : files) {
        stoppedAt = loadFile(file, inserter, bad, counter, progress);
        if (stoppedAt != null) {
          break;
        }
      }
      // Rows still pending are rows before any bad row: they are committed too.
      inserter.close();
      perShard = inserter.rowsPerShard();
    }
    progress.finish(counter.rows, counter.bytes());
    return new LoadResult(table.qualifiedName(), table.shardNames(),
        Arrays.stream(perShard).boxed().toList(), counter.rows, bad.count(), bad.report(),
        stoppedAt, nanoClock.getAsLong() - start);
  }

  /** Loads one file; returns the bad row that stops the load, or null. */
  private BadRow loadFile(Path file, ShardedInserter inserter, BadRows bad, Counter counter,
      ProgressReporter progress) {
    final String name = file.toString();
    final CountingStream in;
    try {
      in = new CountingStream(Files.newInputStream(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name + ": " + e.getMessage(), e);
    }
    counter.open(in);
    try (Reader reader =
             new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      final CsvRecords records = new CsvRecords(reader, options.delimiter());
      RowConverter converter = options.header() ? null
          : RowConverter.inTableOrder(table.layout().columns());
      for (CsvRecords.Record record = records.next(); record != null;
          record = records.next()) {
        if (record.blank()) {
          continue;
        }
        try {
          if (record.malformed() != null) {
            throw new BadValueException(record.malformed());
          }
          if (converter == null) {
            converter = headerConverter(name, record.fields());
            continue;
          }
          final Object[] row = converter.convert(record.fields());
          checkRoute(row);
          inserter.insert(row);
          counter.rows++;
        } catch (BadValueException e) {
          final BadRow badRow = new BadRow(name, record.line(), e.getMessage());
          bad.add(badRow);
          if (!options.skipBad()) {
            return badRow;
          }
        }
        progress.update(counter.rows, counter.bytes());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name + ": " + e.getMessage(), e);
    }
    counter.close();
    return null;
  }

  private RowConverter headerConverter(String file, List<String> header) {
    try {
      return RowConverter.forHeader(table.layout().columns(), header);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** Rejects a row whose key no shard accepts, or whose subpartition column value no
   * subpartition does, before any of it is written. */
  private void checkRoute(Object[] row) throws BadValueException {
    final ShardRouter router = table.router();
    if (router == null) {
      return;
    }
    final Subpartitioning sub = table.subpartitioning();
    if (sub != null && sub.subpartitionOf(row).isEmpty()) {
      throw new BadValueException("no subpartition accepts "
          + table.layout().columns().get(sub.column()).name() + " = " + row[sub.column()]);
    }
    final List<Object> key = new ArrayList<>();
    for (int column : table.keyColumns()) {
      key.add(row[column]);
    }
    final OptionalInt shard = router.shardOf(key);
    if (shard.isEmpty()) {
      final List<String> parts = new ArrayList<>();
      for (int i = 0; i < key.size(); i++) {
        parts.add(table.layout().columns().get(table.keyColumns().get(i)).name() + " = "
            + key.get(i));
      }
      throw new BadValueException("no shard accepts key " + String.join(", ", parts));
    }
  }

  private void truncate() {
    for (int shard = 0; shard < table.shardCount(); shard++) {
      final ShardSite site = table.site(shard);
      try (Connection c = site.endpoint().connect(); Statement s = c.createStatement()) {
        for (ShardSite physical : site.tables()) {
          s.execute("TRUNCATE TABLE " + physical.qualifiedName().stream()
              .map(table.dialect(shard)::quoteIdentifier).collect(Collectors.joining(".")));
        }
        if (!c.getAutoCommit()) {
          c.commit();
        }
      } catch (SQLException e) {
        throw new ShardException(site.name(),
            site.endpoint().redact(String.valueOf(e.getMessage())), e);
      }
    }
  }

  /** Rows loaded, and bytes read of the files done and of the one being read. */
  private static final class Counter {
    long rows;
    private long bytesDone;
    private CountingStream current;

    void open(CountingStream stream) {
      current = stream;
    }

    void close() {
      bytesDone += current.count;
      current = null;
    }

    long bytes() {
      return bytesDone + (current == null ? 0 : current.count);
    }
  }

  /** An input stream that counts the bytes read through it. */
  private static final class CountingStream extends FilterInputStream {
    long count;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override public int read() throws IOException {
      final int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override public int read(byte[] b, int off, int len) throws IOException {
      final int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
