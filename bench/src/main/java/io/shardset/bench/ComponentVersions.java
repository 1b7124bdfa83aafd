package io.shardset.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The versions of the optional parts of a run (JDBC drivers, other systems), read from their
 * jars, so that results.md says what was measured even for a part another module adds.
 */
final class ComponentVersions {
  /**
   * Name, a class of the component, and the Maven coordinates its jar records. A system added
   * to the benchmark adds its line here.
   */
  private static final String[][] COMPONENTS = {
      {"PostgreSQL JDBC", "org.postgresql.Driver", "org.postgresql/postgresql"},
      {"ShardingSphere-JDBC", "org.apache.shardingsphere.driver.ShardingSphereDriver",
          "org.apache.shardingsphere/shardingsphere-jdbc"},
  };

  private ComponentVersions() {
  }

  /** Each component's version, or "not on the classpath". */
  static Map<String, String> optional() {
    final Map<String, String> result = new LinkedHashMap<>();
    for (String[] component : COMPONENTS) {
      result.put(component[0], version(component[1], component[2]));
    }
    return result;
  }

  /** The jar manifest's Implementation-Version, else the pom.properties Maven packs in. */
  static String version(String className, String coordinates) {
    final Class<?> type;
    try {
      type = Class.forName(className, false, ComponentVersions.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      return "not on the classpath";
    }
    final String manifest = type.getPackage() == null ? null
        : type.getPackage().getImplementationVersion();
    if (manifest != null) {
      return manifest;
    }
    final String pom = "/META-INF/maven/" + coordinates + "/pom.properties";
    try (InputStream in = type.getResourceAsStream(pom)) {
      if (in != null) {
        final Properties properties = new Properties();
        properties.load(in);
        return properties.getProperty("version", "unknown");
      }
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
    return "unknown";
  }
}
