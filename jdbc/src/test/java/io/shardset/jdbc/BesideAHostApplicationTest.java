package io.shardset.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
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
 * The driver jar on one class path with a host application's own, older libraries: Guava 16
 * (which lacks most of what Calcite calls) and Jackson 2.17. The host keeps its versions, and
 * the driver, using its relocated copies, opens a model and answers: nothing of the host's
 * reaches it, nothing of its reaches the host.
 */
class BesideAHostApplicationTest {
  @TempDir Path folder;

  @Test void theHostKeepsItsLibrariesAndTheDriverWorks() throws Exception {
    final List<URL> path = new ArrayList<>();
    try (Stream<Path> libraries = Files.list(Path.of(System.getProperty(
        "shardset.host.libraries")))) {
      for (Path library : (Iterable<Path>) libraries.sorted()::iterator) {
        path.add(library.toUri().toURL());
      }
    }
    assertEquals(4, path.size(), path.toString());
    // The host's libraries first, as an application's own class path would put them.
    path.add(Path.of(System.getProperty("shardset.jdbc.jar")).toUri().toURL());
    try (URLClassLoader host = new URLClassLoader(path.toArray(new URL[0]),
        ClassLoader.getPlatformClassLoader())) {
      final Class<?> mapper = host.loadClass("com.fasterxml.jackson.databind.ObjectMapper");
      assertEquals("2.17.2", mapper.getMethod("version").invoke(
          mapper.getDeclaredConstructor().newInstance()).toString());
      assertTrue(host.loadClass("com.google.common.collect.ImmutableList")
          .getProtectionDomain().getCodeSource().getLocation().toString()
          .endsWith("guava-16.0.1.jar"));

      final Driver h2 = (Driver) host.loadClass("org.h2.Driver").getDeclaredConstructor()
          .newInstance();
      final String url = "jdbc:h2:" + folder.resolve("s0").toAbsolutePath();
      final Properties user = new Properties();
      user.setProperty("user", "sa");
      user.setProperty("password", "");
      try (Connection c = h2.connect(url, user); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE T (ID BIGINT PRIMARY KEY, V VARCHAR(10))");
        s.execute("INSERT INTO T VALUES (1, 'a'), (2, 'b')");
      }
      final Properties info = new Properties();
      info.setProperty("model", "inline:{\"version\": \"1.0\", \"defaultSchema\": \"S\","
          + " \"schemas\": [{\"name\": \"S\", \"type\": \"custom\", \"factory\":"
          + " \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {\"shards\": [{\"name\":"
          + " \"s0\", \"jdbcUrl\": \"" + url + "\", \"jdbcUser\": \"sa\", \"jdbcPassword\": \"\"}],"
          + " \"tables\": [{\"name\": \"T\", \"method\": \"duplicated\"}]}}]}");
      final Driver shardset = (Driver) host.loadClass("io.shardset.calcite.jdbc.ShardSetDriver")
          .getDeclaredConstructor().newInstance();
      try (Connection c = shardset.connect("jdbc:shardset:", info);
           Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT V FROM T WHERE ID = 2")) {
        assertTrue(rs.next());
        assertEquals("b", rs.getString(1));
      }
    }
  }
}
