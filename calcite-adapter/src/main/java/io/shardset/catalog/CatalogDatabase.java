package io.shardset.catalog;

import io.shardset.model.CatalogSpec;
import io.shardset.util.JdbcTables;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The catalog database: how to connect to it (errors name it without its password), the
 * tables ShardSet keeps there, and its clock, which every process's lease is measured by, so
 * that processes on machines whose clocks differ agree on whose lease ran out.
 */
public final class CatalogDatabase {
  /** The kinds of database a catalog is kept in, as far as their SQL differs. */
  enum Kind {
    POSTGRESQL, MARIADB, H2, OTHER
  }

  /** Ends the connections whose network timeout passed (JDBC's abort executor). */
  private static final Executor ABORTS = command -> {
    final Thread thread = new Thread(command, "shardset-catalog-abort");
    thread.setDaemon(true);
    thread.start();
  };

  private final CatalogSpec spec;
  private final long networkTimeoutMillis;

  private CatalogDatabase(CatalogSpec spec, long networkTimeoutMillis) {
    this.spec = spec;
    this.networkTimeoutMillis = networkTimeoutMillis;
  }

  /** The catalog these settings name; nothing is connected to yet. */
  public static CatalogDatabase of(CatalogSpec spec) {
    return new CatalogDatabase(Objects.requireNonNull(spec, "spec"), 0);
  }

  /**
   * The catalog, its connections waiting at most {@code millis} for any answer: a process
   * that must renew its lease does not hang on a catalog the network lost.
   */
  public CatalogDatabase withNetworkTimeout(long millis) {
    return new CatalogDatabase(spec, millis);
  }

  /** The settings the catalog was named by. */
  public CatalogSpec spec() {
    return spec;
  }

  /**
   * A new connection to the catalog.
   *
   * @throws SQLException saying {@code cannot connect to the catalog URL as USER: reason},
   *     without the password even where the driver's message repeats it
   */
  public Connection connect() throws SQLException {
    try {
      final Connection c = DriverManager.getConnection(spec.jdbcUrl(), spec.user(),
          spec.password());
      if (networkTimeoutMillis > 0) {
        try {
          c.setNetworkTimeout(ABORTS, (int) Math.min(networkTimeoutMillis, Integer.MAX_VALUE));
        } catch (SQLFeatureNotSupportedException e) {
          // An embedded database has no network to lose.
        }
      }
      return c;
    } catch (SQLException e) {
      final String reason = spec.password().isEmpty() ? String.valueOf(e.getMessage())
          : String.valueOf(e.getMessage()).replace(spec.password(), "****");
      throw new SQLException("cannot connect to the " + spec + ": " + reason,
          e.getSQLState());
    }
  }

  /** Creates whichever of the catalog's tables are missing; all of them are kept. */
  public void createTables() throws SQLException {
    try (Connection c = connect()) {
      final String text = switch (kind(c)) {
      // A model of a thousand shards is far more than MariaDB's TEXT holds.
      case MARIADB -> "LONGTEXT";
      case H2 -> "CLOB";
      default -> "TEXT";
      };
      create(c, ModelCatalog.TABLE, "CREATE TABLE " + ModelCatalog.TABLE
          + " (SCHEMA_NAME VARCHAR(128) NOT NULL, VERSION BIGINT NOT NULL, OPERAND " + text
          + " NOT NULL, CREATED_AT TIMESTAMP NOT NULL, CREATED_BY VARCHAR(512) NOT NULL,"
          + " PRIMARY KEY (SCHEMA_NAME, VERSION))");
      create(c, ProcessRegistry.TABLE, "CREATE TABLE " + ProcessRegistry.TABLE
          + " (PROCESS_ID VARCHAR(64) NOT NULL, SCHEMA_NAME VARCHAR(128) NOT NULL,"
          + " DESCRIPTION VARCHAR(512) NOT NULL, RUNS_VERSION BIGINT NOT NULL,"
          + " DRAINED_VERSION BIGINT NOT NULL, HEARTBEAT_MILLIS BIGINT NOT NULL,"
          + " LEASE_MILLIS BIGINT NOT NULL, PRIMARY KEY (PROCESS_ID, SCHEMA_NAME))");
      create(c, CatalogMoveLock.TABLE, "CREATE TABLE " + CatalogMoveLock.TABLE
          + " (SCHEMA_NAME VARCHAR(128) NOT NULL PRIMARY KEY)");
    }
  }

  /** Creates a table unless it is there; one created meanwhile by another process is fine. */
  private static void create(Connection c, String table, String ddl) throws SQLException {
    if (JdbcTables.exists(c.getMetaData(), table)) {
      return;
    }
    try (Statement s = c.createStatement()) {
      s.execute(ddl);
    } catch (SQLException e) {
      if (!JdbcTables.exists(c.getMetaData(), table)) {
        throw e;
      }
    }
  }

  /** The kind of database a connection is to. */
  static Kind kind(Connection c) throws SQLException {
    final String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
    return product.contains("postgres") ? Kind.POSTGRESQL
        : product.contains("mariadb") || product.contains("mysql") ? Kind.MARIADB
        : product.contains("h2") ? Kind.H2
        : Kind.OTHER;
  }

  /**
   * The SQL of the catalog database's clock, in milliseconds since 1970: leases are measured
   * by this one clock, not by each machine's own.
   */
  static String clockMillis(Connection c) throws SQLException {
    return switch (kind(c)) {
    case POSTGRESQL -> "CAST(EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000 AS BIGINT)";
    case MARIADB -> "CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)";
    default -> "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)";
    };
  }

  /** The catalog as messages name it: URL without properties, and user. */
  @Override public String toString() {
    return spec.toString();
  }
}
