package io.shardset.bench;

import io.shardset.catalog.CatalogDatabase;
import io.shardset.catalog.ModelCatalog;
import io.shardset.catalog.ModelDocuments;
import io.shardset.catalog.ProcessRegistry;
import io.shardset.cli.ShardSetCli;
import io.shardset.model.CatalogSpec;
import io.shardset.routing.ChunkMap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * w23: how soon every server runs a new version of a model kept in a catalog. Three
 * {@code shardset server} JVMs serve a model of two PostgreSQL shards from a PostgreSQL
 * catalog; each switch writes a version that moves one hash range of an empty table to the
 * other shard, and is timed from the start of that version's write to the moment the catalog's
 * registry shows all three servers acknowledging it (running it, no execution under an older
 * one left), read every millisecond. One unrecorded switch comes first.
 */
public final class CatalogSwitchBench implements AutoCloseable {
  private static final String SCHEMA = "W23";
  private static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
  private static final String USER = "postgres";
  private static final int SERVERS = 3;
  private static final int CHUNKS = 4;
  private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

  private final ModelCatalog catalog;
  private final ProcessRegistry registry;
  private final List<String> shardUrls;
  private final List<ChildJvm> servers = new ArrayList<>();
  /** The connection the registry is read on, kept open so that reading it is quick. */
  private final Connection watcher;
  private long version = 1;

  private CatalogSwitchBench(ModelCatalog catalog, List<String> shardUrls) throws SQLException {
    this.catalog = catalog;
    this.watcher = catalog.database().connect();
    this.registry = ProcessRegistry.of(CatalogDatabase.of(catalog.database().spec()));
    this.shardUrls = shardUrls;
  }

  /** Creates the databases, writes the model's first version and starts the servers. */
  public static CatalogSwitchBench start(Path work) throws Exception {
    final List<String> shards = new ArrayList<>();
    for (String name : List.of("w23_s0", "w23_s1", "w23_catalog")) {
      try (Connection admin = DriverManager.getConnection(SERVER + "postgres", USER, "");
           Statement s = admin.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        s.execute("CREATE DATABASE " + name);
      }
      shards.add(SERVER + name);
    }
    final String catalogUrl = shards.remove(2);
    for (String shard : shards) {
      try (Connection c = DriverManager.getConnection(shard, USER, "");
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE T (ID INTEGER PRIMARY KEY)");
      }
    }
    final CatalogSpec spec = new CatalogSpec(catalogUrl, USER, "", 10_000, 1_000);
    final CatalogSwitchBench bench = new CatalogSwitchBench(ModelCatalog.of(spec), shards);
    bench.catalog.create();
    bench.catalog.publish(SCHEMA, 0, bench.operand(0), "w23");
    Files.createDirectories(work);
    final Path pointer = work.resolve("w23-pointer.json");
    Files.writeString(pointer, ModelDocuments.pointerFile(SCHEMA, spec));
    try {
      for (int i = 0; i < SERVERS; i++) {
        final ChildJvm server = ChildJvm.start(ShardSetCli.class, List.of("server", "--model",
            pointer.toString(), "--port", "0"));
        bench.servers.add(server);
        awaitServing(server);
      }
      bench.awaitAcknowledged(1);
    } catch (Exception e) {
      bench.close();
      throw e;
    }
    return bench;
  }

  /** The time of each of {@code runs} switches, after one unrecorded; nanoseconds. */
  public long[] switches(int runs) throws SQLException {
    switchOnce();
    final long[] result = new long[runs];
    for (int i = 0; i < runs; i++) {
      result[i] = switchOnce();
    }
    return result;
  }

  private long switchOnce() throws SQLException {
    final long start = System.nanoTime();
    catalog.publish(SCHEMA, version, operand((int) (version % 2)), "w23");
    version++;
    awaitAcknowledged(version);
    return System.nanoTime() - start;
  }

  private void awaitAcknowledged(long wanted) throws SQLException {
    final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (true) {
      final List<ProcessRegistry.Process> processes = registry.processes(watcher, SCHEMA);
      if (processes.size() == SERVERS
          && processes.stream().allMatch(p -> p.drainedVersion() >= wanted)) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new SQLException("the servers did not acknowledge version " + wanted
            + " within a minute: " + processes);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }

  /** The operand with the first hash range on shard {@code firstOn}. */
  private String operand(int firstOn) {
    final StringJoiner shards = new StringJoiner(", ");
    for (int i = 0; i < shardUrls.size(); i++) {
      shards.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + shardUrls.get(i)
          + "\", \"jdbcUser\": \"" + USER + "\", \"jdbcPassword\": \"\"}");
    }
    final StringJoiner map = new StringJoiner(", ");
    final List<ChunkMap.Entry> entries = ChunkMap.defaultPlacement(CHUNKS, 2).entries();
    for (int i = 0; i < entries.size(); i++) {
      final ChunkMap.Entry e = entries.get(i);
      map.add("{\"from\": " + e.from() + ", \"to\": " + e.to() + ", \"shard\": \"s"
          + (i == 0 ? firstOn : e.shard()) + "\"}");
    }
    return "{\"shards\": [" + shards + "], \"chunks\": " + CHUNKS + ", \"chunkMap\": [" + map
        + "], \"tables\": [{\"name\": \"T\", \"method\": \"consistent-hash\","
        + " \"shardKey\": [\"ID\"]}]}";
  }

  private static void awaitServing(ChildJvm server) throws Exception {
    final long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      final String line = server.poll(Duration.ofSeconds(5));
      if (line != null && line.startsWith("Serving ")) {
        return;
      }
      if (ChildJvm.EOF.equals(line)) {
        break;
      }
    }
    throw new IllegalStateException("a w23 server did not start serving");
  }

  @Override public void close() throws InterruptedException, SQLException {
    for (ChildJvm server : servers) {
      server.close();
    }
    watcher.close();
  }
}
