package io.shardset.distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server distribution as an operator uses it: unpacked into an empty folder and run with
 * only a Java runtime on the PATH. {@code bin/shardset} prints its versions and loads the
 * example's CSV files, {@code bin/shardset-server} serves the example model, {@code
 * bin/sqlline} queries it through the server and embedded, and the rows are checked on the
 * shards themselves.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class UnpackedArchiveTest {
  private static final String VERSION = System.getProperty("shardset.version");
  private static final Path RELEASE = Path.of(System.getProperty("shardset.release"));
  private static final Pattern SERVING = Pattern.compile(
      "Serving conf/example-model.json at jdbc:avatica:remote:url=(http://127\\.0\\.0\\.1:\\d+);"
      + "serialization=protobuf");
  /** Orders' amounts per customer country, summed from examples/*.csv. */
  private static final List<String> REVENUE = List.of("'BR','7120.00'", "'DE','7587.50'",
      "'FR','9863.50'", "'GB','7632.50'", "'JP','8480.00'", "'US','10116.50'");

  @TempDir Path folder;

  @Test void runsFromAnEmptyFolderWithOnlyAJavaRuntime() throws Exception {
    final Path unpacked = folder.resolve("opt");
    Files.createDirectories(unpacked);
    new Shell(unpacked, folder).run("tar", "-xzf",
        RELEASE.resolve("shardset-" + VERSION + ".tar.gz").toString());
    final Path home = unpacked.resolve("shardset-" + VERSION);
    final Shell shell = new Shell(home, folder);

    assertTrue(shell.run("bin/shardset", "--version").startsWith("ShardSet " + VERSION
        + " (Calcite 1.42.0, Avatica 1.28.0, Java "));
    for (String table : List.of("COUNTRIES", "CUSTOMERS", "ORDERS")) {
      final String loaded = shell.run("bin/shardset", "load", "--model",
          "conf/example-model.json", "--table", table,
          "examples/" + table.toLowerCase(Locale.ROOT) + ".csv");
      assertTrue(loaded.contains("bad rows: 0"), loaded);
    }

    final Process server = shell.command("bin/shardset-server", "--model",
        "conf/example-model.json", "--port", "0").start();
    try {
      final String address = servingAddress(server);
      final String query = "SELECT c.COUNTRY, SUM(o.AMOUNT) FROM CUSTOMERS c JOIN ORDERS o"
          + " ON o.CUSTOMER_ID = c.CUSTOMER_ID GROUP BY c.COUNTRY ORDER BY 1";
      assertEquals(REVENUE, Shell.csvRows(shell.run("bin/sqlline", "--remote", address,
          "--outputformat=csv", "--showHeader=false", "-e", query)));
      // Embedded, beside the running server: the example's H2 shards allow both.
      assertEquals(REVENUE, Shell.csvRows(shell.run("bin/sqlline", "--outputformat=csv",
          "--showHeader=false", "-e", query)));
    } finally {
      server.destroy();
      assertTrue(server.waitFor(60, TimeUnit.SECONDS), "the server stops on SIGTERM");
    }

    final Set<Long> customers = new HashSet<>();
    int orders = 0;
    for (String shard : List.of("s0", "s1", "s2")) {
      try (Connection c = DriverManager.getConnection(
          "jdbc:h2:" + home.resolve("data").resolve(shard) + ";AUTO_SERVER=TRUE", "sa", "");
           Statement s = c.createStatement()) {
        assertEquals(6, count(s, "SELECT COUNT(*) FROM COUNTRIES"), "duplicated on " + shard);
        final int before = customers.size();
        try (ResultSet rs = s.executeQuery("SELECT CUSTOMER_ID FROM CUSTOMERS")) {
          while (rs.next()) {
            assertTrue(customers.add(rs.getLong(1)), "customer " + rs.getLong(1) + " twice");
          }
        }
        assertTrue(customers.size() > before, "no customer on " + shard);
        assertEquals(0, count(s, "SELECT COUNT(*) FROM ORDERS o WHERE NOT EXISTS (SELECT 1"
            + " FROM CUSTOMERS c WHERE c.CUSTOMER_ID = o.CUSTOMER_ID)"),
            "orders live on their customer's shard");
        orders += count(s, "SELECT COUNT(*) FROM ORDERS");
      }
    }
    assertEquals(100, customers.size());
    assertEquals(200, orders);
  }

  @Test void theZipHoldsWhatTheTarHolds() throws Exception {
    final Shell shell = new Shell(folder, folder);
    final Set<String> tar = new HashSet<>(shell.run("tar", "-tzf",
        RELEASE.resolve("shardset-" + VERSION + ".tar.gz").toString()).lines()
        .filter(name -> !name.endsWith("/")).toList());
    final Set<String> zip = new HashSet<>();
    try (ZipFile file = new ZipFile(
        RELEASE.resolve("shardset-" + VERSION + ".zip").toFile())) {
      file.stream().filter(entry -> !entry.isDirectory())
          .forEach(entry -> zip.add(entry.getName()));
    }
    assertEquals(tar, zip);
    final String root = "shardset-" + VERSION + "/";
    for (String file : List.of("bin/shardset", "bin/shardset-server", "bin/sqlline",
        "conf/example-model.json", "conf/users.properties", "conf/simplelogger.properties",
        "README.md", "CHANGELOG.md", "lib/shardset-cli-" + VERSION + ".jar",
        "lib/sqlline-1.12.0.jar", "lib/postgresql-42.7.4.jar")) {
      assertTrue(tar.contains(root + file), file);
    }
    assertFalse(tar.stream().anyMatch(name -> name.contains("junit")), "no test library");
  }

  @Test void theChecksumsAreThoseOfTheFiles() throws Exception {
    final List<String> lines = Files.readAllLines(RELEASE.resolve("SHA256SUMS"));
    final Set<String> named = new HashSet<>();
    for (String line : lines) {
      final String[] sumAndName = line.split("  ", 2);
      final MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      final String actual = HexFormat.of().formatHex(
          sha256.digest(Files.readAllBytes(RELEASE.resolve(sumAndName[1]))));
      assertEquals(actual, sumAndName[0], sumAndName[1]);
      named.add(sumAndName[1]);
    }
    assertEquals(Set.of("shardset-" + VERSION + ".tar.gz", "shardset-" + VERSION + ".zip",
        "shardset-jdbc-" + VERSION + ".jar"), named);
  }

  /** Reads the server's output up to the line that says where it serves. */
  private static String servingAddress(Process server) throws IOException {
    final BufferedReader output = new BufferedReader(new InputStreamReader(
        server.getInputStream(), StandardCharsets.UTF_8));
    final StringBuilder seen = new StringBuilder();
    for (String line = output.readLine(); line != null; line = output.readLine()) {
      final Matcher serving = SERVING.matcher(line);
      if (serving.matches()) {
        // The rest of its output is read and dropped, so that a full pipe never stops it.
        final Thread drain = new Thread(() -> {
          try {
            output.transferTo(Writer.nullWriter());
          } catch (IOException ended) {
            // The server has ended.
          }
        }, "server-output");
        drain.setDaemon(true);
        drain.start();
        return serving.group(1);
      }
      seen.append(line).append('\n');
    }
    throw new AssertionError("the server ended without serving:\n" + seen);
  }

  private static int count(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertTrue(rs.next());
      return rs.getInt(1);
    }
  }
}
