package io.shardset.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** The benchmark data in embedded H2 files, one folder per size. */
public final class H2BenchDatabase implements BenchDatabase {
  private static final String USER = "sa";

  private final Path folder;
  private final BenchData data;

  private H2BenchDatabase(Path folder, BenchData data) {
    this.folder = Objects.requireNonNull(folder, "folder");
    this.data = Objects.requireNonNull(data, "data");
  }

  /**
   * The database of {@code data} in a folder of {@code parent} named by its size, created and
   * loaded unless an earlier run left it complete.
   */
  public static H2BenchDatabase open(Path parent, BenchData data) throws Exception {
    final H2BenchDatabase db =
        new H2BenchDatabase(parent.resolve("orders-" + data.orders()).toAbsolutePath(), data);
    db.ensureLoaded();
    return db;
  }

  @Override public String backend() {
    return "H2";
  }

  @Override public BenchData data() {
    return data;
  }

  @Override public JdbcEndpoint database(String name) {
    return new JdbcEndpoint(Models.h2Url(folder.resolve(name)), USER, "", "PUBLIC");
  }

  private void ensureLoaded() throws Exception {
    final Path marker = folder.resolve("loaded");
    if (Files.exists(marker)) {
      return;
    }
    Files.createDirectories(folder);
    for (JdbcEndpoint db : all()) {
      BenchLoader.execute(db, List.of("DROP ALL OBJECTS"));
      BenchLoader.execute(db, BenchData.DDL);
    }
    final long start = System.nanoTime();
    BenchLoader.loadShards(this);
    BenchLoader.loadUnsharded(this);
    System.out.printf(Locale.ROOT, "Loaded %,d orders into %s in %.1f s%n", data.orders(), folder,
        (System.nanoTime() - start) / 1e9);
    Files.writeString(marker, data.orders() + "\n");
  }
}
