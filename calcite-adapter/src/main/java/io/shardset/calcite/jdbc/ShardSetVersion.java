package io.shardset.calcite.jdbc;

import org.apache.calcite.avatica.DriverVersion;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name and version {@code jdbc:shardset:} connections report in their
 * {@link java.sql.DatabaseMetaData}: ShardSet, both as the product and as the driver, in the
 * project's version, which Maven writes into {@value #RESOURCE} when it builds the module.
 * Calcite's driver would say "Calcite" in Calcite's version, and clients that pick their SQL
 * by product name would take ShardSet for Calcite.
 */
public final class ShardSetVersion {
  /** The filtered resource, next to this class, that holds {@code version=...}. */
  static final String RESOURCE = "shardset-version.properties";

  /** The product name: what {@code getDatabaseProductName()} returns. */
  public static final String PRODUCT_NAME = "ShardSet";

  /** The driver name: what {@code getDriverName()} returns. */
  public static final String DRIVER_NAME = "ShardSet JDBC Driver";

  private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

  /** What Maven wrote into {@value #RESOURCE}, read once. */
  private static final Properties BUILT = properties();

  /** The project version, such as {@code 0.1.0-SNAPSHOT}. */
  public static final String VERSION = load();

  /** The versions of Calcite and Avatica this version is built with and brings. */
  public static final String CALCITE_VERSION = BUILT.getProperty("calcite", "unknown");
  public static final String AVATICA_VERSION = BUILT.getProperty("avatica", "unknown");

  private ShardSetVersion() {
  }

  private static Properties properties() {
    final Properties properties = new Properties();
    try (InputStream in = ShardSetVersion.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    return properties;
  }

  private static String load() {
    final String version = BUILT.getProperty("version", "");
    // A build that skipped Maven's filtering leaves the placeholder, or no resource at all:
    // better to fail than to report a version that is not one.
    if (!MAJOR_MINOR.matcher(version).find()) {
      throw new IllegalStateException("ShardSet's version is missing from " + RESOURCE
          + " (found '" + version + "'): build the module with Maven");
    }
    return version;
  }

  /** The major ({@code part} 1) or minor ({@code part} 2) number of {@link #VERSION}. */
  private static int number(int part) {
    final Matcher matcher = MAJOR_MINOR.matcher(VERSION);
    matcher.find();
    return Integer.parseInt(matcher.group(part));
  }

  /** The version Avatica's metadata reports for the driver and for the database. */
  public static DriverVersion driverVersion() {
    final int major = number(1);
    final int minor = number(2);
    return new DriverVersion(DRIVER_NAME, VERSION, PRODUCT_NAME, VERSION, false, major, minor,
        major, minor);
  }
}
