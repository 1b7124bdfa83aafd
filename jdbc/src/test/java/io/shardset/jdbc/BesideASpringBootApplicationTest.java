package io.shardset.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver jar in a Spring Boot 3.5 application that has its own HikariCP, Jackson 2.17 and
 * Guava 16 on its class path: a class loader of the application's jars and the driver jar
 * alone (nothing of the build's class path) runs {@code HostApplication}, which Boot wires to
 * ShardSet through {@code spring.datasource.*}. The application writes ten rows in one
 * transaction over two H2 shards and reads them back with its own libraries; the rows are
 * counted on the shards.
 */
class BesideASpringBootApplicationTest {
  @TempDir Path folder;

  @Test void bootWiresTheDriverAndKeepsItsOwnLibraries() throws Exception {
    final List<URL> path = new ArrayList<>();
    for (String property : List.of("shardset.host.application", "shardset.host.libraries")) {
      try (Stream<Path> jars = Files.list(Path.of(System.getProperty(property)))) {
        for (Path jar : (Iterable<Path>) jars.sorted()::iterator) {
          path.add(jar.toUri().toURL());
        }
      }
    }
    path.add(Path.of(System.getProperty("shardset.jdbc.jar")).toUri().toURL());
    path.add(Path.of(System.getProperty("shardset.host.classes")).toUri().toURL());

    final List<String> shards = List.of(folder.resolve("s0").toString(),
        folder.resolve("s1").toString());
    final StringBuilder shardList = new StringBuilder();
    for (String shard : shards) {
      shardList.append(shardList.length() == 0 ? "" : ", ").append("{\"name\": \"")
          .append(shard.endsWith("s0") ? "s0" : "s1").append("\", \"jdbcUrl\": \"jdbc:h2:")
          .append(shard).append("\", \"jdbcUser\": \"sa\", \"jdbcPassword\": \"\"}");
    }
    final Path model = folder.resolve("model.json");
    Files.writeString(model, "{\"version\": \"1.0\", \"defaultSchema\": \"APP\", \"schemas\":"
        + " [{\"name\": \"APP\", \"type\": \"custom\", \"factory\":"
        + " \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {\"shards\": ["
        + shardList + "], \"tables\": [{\"name\": \"T\", \"method\": \"consistent-hash\","
        + " \"shardKey\": [\"ID\"]}]}}]}", StandardCharsets.UTF_8);

    try (URLClassLoader host = new URLClassLoader(path.toArray(new URL[0]),
        ClassLoader.getPlatformClassLoader())) {
      final Driver h2 = (Driver) host.loadClass("org.h2.Driver").getDeclaredConstructor()
          .newInstance();
      for (String shard : shards) {
        try (Connection c = h2.connect("jdbc:h2:" + shard, sa());
             Statement s = c.createStatement()) {
          s.execute("CREATE TABLE T (ID BIGINT PRIMARY KEY, V VARCHAR(10))");
        }
      }

      final Thread thread = Thread.currentThread();
      final ClassLoader before = thread.getContextClassLoader();
      final Object report;
      // As an application started from its own class path: Boot looks up its configuration
      // through the thread's class loader.
      thread.setContextClassLoader(host);
      try {
        final Class<?> application = host.loadClass("io.shardset.jdbc.host.HostApplication");
        report = application.getMethod("run", String[].class).invoke(
            application.getDeclaredConstructor().newInstance(), (Object) new String[] {
                "--spring.datasource.driver-class-name=io.shardset.calcite.jdbc.ShardSetDriver",
                "--spring.datasource.url=jdbc:shardset:model=" + model,
                "--spring.main.banner-mode=off"});
      } finally {
        thread.setContextClassLoader(before);
      }
      assertEquals("{\"values\":[\"v2\",\"v7\"],\"count\":10,"
          + "\"pool\":\"com.zaxxer.hikari.HikariDataSource\",\"jackson\":\"2.17.2\","
          + "\"guava\":\"guava-16.0.1.jar\"}", report);

      long rows = 0;
      for (String shard : shards) {
        try (Connection c = h2.connect("jdbc:h2:" + shard, sa());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM T")) {
          assertTrue(rs.next());
          assertTrue(rs.getLong(1) > 0, "no row on " + shard);
          rows += rs.getLong(1);
        }
      }
      assertEquals(10, rows);
    }
  }

  private static Properties sa() {
    final Properties user = new Properties();
    user.setProperty("user", "sa");
    user.setProperty("password", "");
    return user;
  }
}
