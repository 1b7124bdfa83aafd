package io.shardset.calcite.remote;

import io.shardset.calcite.jdbc.NullSorting;
import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.jdbc.ShardSetVersion;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.BuiltInConnectionProperty;
import org.apache.calcite.avatica.ConnectStringParser;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.InternalProperty;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * JDBC driver for {@code jdbc:shardset:remote:} URLs: Avatica's remote driver, to a ShardSet
 * server, whose {@link java.sql.DatabaseMetaData} says what a ShardSet server does. Avatica's
 * client answers the product name and version and the NULL ordering itself, without asking
 * the server, and says "Avatica", "unknown version" and "NULLs at the end"; this driver says
 * "ShardSet" in its own version, and NULLs sorted high, as the server's queries sort them
 * (Calcite's default null collation, which a ShardSet server does not change). It lists
 * primary keys, foreign keys and indexes, which Avatica's protocol cannot ask for, from the
 * server's system tables, and sends and reads {@code java.time} values
 * ({@link ShardSetRemoteFactory}). Its errors carry the server's reason as their message, as
 * {@code jdbc:shardset:} words them, where Avatica's client words its own
 * ({@link RemoteFailures}). Its URL properties are those of {@code jdbc:avatica:remote:}.
 */
public class ShardSetRemoteDriver extends org.apache.calcite.avatica.remote.Driver {
  /** The URL prefix this driver accepts. */
  public static final String CONNECT_STRING_PREFIX =
      ShardSetDriver.REMOTE_CONNECT_STRING_PREFIX;

  /** How a ShardSet server's queries order NULLs. */
  static final NullCollation SERVER_NULL_COLLATION =
      NullCollation.valueOf(CalciteConnectionProperty.DEFAULT_NULL_COLLATION.defaultValue()
          .toString());

  static {
    new ShardSetRemoteDriver().register();
  }

  /** Creates a driver; {@link java.sql.DriverManager} uses this. */
  public ShardSetRemoteDriver() {
  }

  @Override protected String getConnectStringPrefix() {
    return CONNECT_STRING_PREFIX;
  }

  /**
   * Avatica's connect, whose failures to reach the server (refused, TLS not trusted, an HTTP
   * error status) arrive as RuntimeExceptions, which tools do not expect of a driver: they
   * become SQLExceptions with SQLState 08001 naming the server's address, and an error the
   * server sent keeps its own state.
   */
  @Override public @Nullable Connection connect(String url, Properties info)
      throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    try {
      return super.connect(url, signIn(url, info));
    } catch (RuntimeException e) {
      final SQLException sent = RemoteFailures.of(e);
      throw sent != null ? sent : RemoteFailures.unreachable(url, e);
    }
  }

  /**
   * The properties with the JDBC {@code user} and {@code password}, which the user and
   * password fields of tools (DBeaver, DataGrip, Tableau, Spring's {@code spring.datasource.*})
   * set, standing for Avatica's {@code avatica_user} and {@code avatica_password} where neither
   * the URL nor the properties give those, and {@code authentication=BASIC} (a ShardSet
   * server's) where none is given. Avatica's own driver reads only its own names and would
   * connect without credentials, which a server with users refuses.
   */
  static Properties signIn(String url, Properties info) throws SQLException {
    final String user = info.getProperty("user");
    if (user == null || user.isEmpty()) {
      return info;
    }
    final Properties given = ConnectStringParser.parse(
        url.substring(CONNECT_STRING_PREFIX.length()), info);
    if (given.getProperty(BuiltInConnectionProperty.AVATICA_USER.camelName()) != null) {
      return info;
    }
    final Properties signed = new Properties();
    signed.putAll(info);
    signed.setProperty(BuiltInConnectionProperty.AVATICA_USER.camelName(), user);
    signed.setProperty(BuiltInConnectionProperty.AVATICA_PASSWORD.camelName(),
        info.getProperty("password", ""));
    if (given.getProperty(BuiltInConnectionProperty.AUTHENTICATION.camelName()) == null) {
      signed.setProperty(BuiltInConnectionProperty.AUTHENTICATION.camelName(), "BASIC");
    }
    return signed;
  }

  /** ShardSet's name and version: the client's, which is the server's when both are one
   * release, and the server's own in {@code getRemoteAvaticaProperties()}. */
  @Override protected DriverVersion createDriverVersion() {
    return ShardSetVersion.driverVersion();
  }

  /** Avatica's JDBC objects, with keys, indexes and {@code java.time} values that work
   * ({@link ShardSetRemoteFactory}). */
  @Override protected AvaticaFactory createFactory() {
    return new ShardSetRemoteFactory();
  }

  /** Avatica's remote metadata, which also makes the server stop a statement whose
   * {@code setQueryTimeout} is up (see {@link TimedRemoteMeta}). */
  @Override public Meta createMeta(AvaticaConnection connection) {
    connection.properties.put(InternalProperty.NULL_SORTING,
        NullSorting.of(SERVER_NULL_COLLATION));
    // Avatica's own logs in and sets the connection's service, which the timed one sends on.
    super.createMeta(connection);
    return new TimedRemoteMeta(connection, connection.getService());
  }
}
