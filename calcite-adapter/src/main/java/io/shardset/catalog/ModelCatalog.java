package io.shardset.catalog;

import io.shardset.model.CatalogSpec;
import io.shardset.util.JdbcTables;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A catalog database's models: each schema's model (the operand of its ShardSet schema, as
 * JSON text with its placeholders unresolved) as numbered versions in one table,
 * {@code SHARDSET_MODEL_VERSIONS}. A change is a new version, written in one transaction
 * whose primary key refuses a second writer of the same number, so that two processes
 * changing one model cannot both succeed from the same version. Each call opens its own
 * connection: the catalog is read when connections open and written by tools, not on every
 * statement.
 */
public final class ModelCatalog {
  /** The table of model versions. */
  public static final String TABLE = "SHARDSET_MODEL_VERSIONS";
  /** The versions of one schema, its name the first parameter. */
  private static final String OF_SCHEMA = "SELECT SCHEMA_NAME, VERSION, OPERAND, CREATED_AT,"
      + " CREATED_BY FROM " + TABLE + " WHERE SCHEMA_NAME = ?";

  /**
   * One version of a schema's model.
   *
   * @param operand the schema's operand as JSON text
   * @param createdBy who wrote it and why, such as {@code shardset catalog init}
   */
  public record Version(String schema, long number, String operand, Instant createdAt,
      String createdBy) {
    public Version {
      Objects.requireNonNull(schema, "schema");
      Objects.requireNonNull(operand, "operand");
      Objects.requireNonNull(createdAt, "createdAt");
      Objects.requireNonNull(createdBy, "createdBy");
    }
  }

  /** The channel PostgreSQL notifies of a new version on; the payload is the schema name. */
  public static final String CHANNEL = "shardset_models";

  private final CatalogSpec spec;
  private final CatalogDatabase database;

  private ModelCatalog(CatalogDatabase database) {
    this.spec = database.spec();
    this.database = database;
  }

  /** The catalog these settings name; nothing is connected to yet. */
  public static ModelCatalog of(CatalogSpec spec) {
    return of(CatalogDatabase.of(Objects.requireNonNull(spec, "spec")));
  }

  /** The models of a catalog database. */
  public static ModelCatalog of(CatalogDatabase database) {
    return new ModelCatalog(Objects.requireNonNull(database, "database"));
  }

  /** Creates the catalog's tables that are not there yet. */
  public void create() throws SQLException {
    database.createTables();
  }

  /** The catalog database. */
  public CatalogDatabase database() {
    return database;
  }

  /**
   * The number of the newest version of a schema's model, 0 if there is none: one small
   * query, which processes run to learn of a new version.
   */
  public long newestNumber(String schema) throws SQLException {
    try (Connection c = connect()) {
      return newestNumber(c, schema);
    } catch (SQLException e) {
      throw unreadable(e);
    }
  }

  /** {@link #newestNumber(String)} on a connection of the catalog the caller keeps open. */
  public long newestNumber(Connection c, String schema) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT MAX(VERSION) FROM " + TABLE
             + " WHERE SCHEMA_NAME = ?")) {
      p.setString(1, schema);
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /** The newest version of a schema's model, if the catalog has one. */
  public Optional<Version> current(String schema) throws SQLException {
    return first(OF_SCHEMA + " ORDER BY VERSION DESC", schema, null);
  }

  /**
   * The newest version of a schema's model.
   *
   * @throws IllegalArgumentException if the catalog holds no model of the schema
   */
  public Version newest(String schema) throws SQLException {
    return current(schema).orElseThrow(() -> new IllegalArgumentException("the " + spec
        + " holds no model of schema '" + schema + "'; put one there with 'shardset catalog"
        + " init'"));
  }

  /** One version of a schema's model, if the catalog has it. */
  public Optional<Version> version(String schema, long number) throws SQLException {
    return first(OF_SCHEMA + " AND VERSION = ?", schema, number);
  }

  /** {@link #version(String, long)} on a connection of the catalog the caller keeps open. */
  public Optional<Version> version(Connection c, String schema, long number)
      throws SQLException {
    return first(c, OF_SCHEMA + " AND VERSION = ?", schema, number);
  }

  /** The first row of a query of {@link #OF_SCHEMA}, with the version number if it asks. */
  private Optional<Version> first(String sql, String schema, @Nullable Long number)
      throws SQLException {
    try (Connection c = connect()) {
      return first(c, sql, schema, number);
    } catch (SQLException e) {
      throw unreadable(e);
    }
  }

  private static Optional<Version> first(Connection c, String sql, String schema,
      @Nullable Long number) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      // Not FETCH FIRST, which MySQL does not parse.
      p.setMaxRows(1);
      p.setString(1, schema);
      if (number != null) {
        p.setLong(2, number);
      }
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() ? Optional.of(version(rs)) : Optional.empty();
      }
    }
  }

  /** Every version of every schema, oldest first per schema, without their operands. */
  public List<Version> history() throws SQLException {
    final List<Version> versions = new ArrayList<>();
    try (Connection c = connect();
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT SCHEMA_NAME, VERSION, '' AS OPERAND,"
             + " CREATED_AT, CREATED_BY FROM " + TABLE + " ORDER BY SCHEMA_NAME, VERSION")) {
      while (rs.next()) {
        versions.add(version(rs));
      }
    } catch (SQLException e) {
      throw unreadable(e);
    }
    return versions;
  }

  /**
   * Writes a new version of a schema's model, the one after {@code after} (0 for the first),
   * in one transaction.
   *
   * @throws SQLException with SQLState 40001 if another process wrote that version first
   */
  public Version publish(String schema, long after, String operand, String createdBy)
      throws SQLException {
    final Version version = new Version(schema, after + 1, operand, Instant.now(), createdBy);
    try (Connection c = connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement p = c.prepareStatement("INSERT INTO " + TABLE
          + " (SCHEMA_NAME, VERSION, OPERAND, CREATED_AT, CREATED_BY) VALUES (?, ?, ?, ?, ?)")) {
        p.setString(1, schema);
        p.setLong(2, version.number());
        p.setString(3, operand);
        p.setTimestamp(4, Timestamp.from(version.createdAt()));
        p.setString(5, createdBy);
        p.executeUpdate();
        if (CatalogDatabase.kind(c) == CatalogDatabase.Kind.POSTGRESQL) {
          // Delivered at commit: the processes that listen learn of the version at once.
          try (PreparedStatement notify = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            notify.setString(1, CHANNEL);
            notify.setString(2, schema);
            notify.execute();
          }
        }
        c.commit();
      } catch (SQLException e) {
        final boolean overtaken;
        try {
          c.rollback();
          overtaken = current(schema).map(v -> v.number() > after).orElse(false);
        } catch (SQLException | RuntimeException whileLooking) {
          // The insert's own error is the one to report.
          e.addSuppressed(whileLooking);
          throw e;
        }
        if (overtaken) {
          throw new SQLException("the model of schema '" + schema + "' in the " + spec
              + " changed meanwhile: version " + version.number() + " was written by another"
              + " process; read it and try again", "40001", e);
        }
        throw e;
      }
    }
    return version;
  }

  private Connection connect() throws SQLException {
    return database.connect();
  }

  private SQLException unreadable(SQLException e) throws SQLException {
    if (e.getMessage() != null && e.getMessage().startsWith("cannot connect to the ")) {
      return e;
    }
    try (Connection c = connect()) {
      if (!JdbcTables.exists(c.getMetaData(), TABLE)) {
        return new SQLException("the " + spec + " has no table " + TABLE + ": run"
            + " 'shardset catalog init' to create it", "42S02", e);
      }
    }
    return e;
  }

  private static Version version(ResultSet rs) throws SQLException {
    return new Version(rs.getString(1), rs.getLong(2), rs.getString(3),
        rs.getTimestamp(4).toInstant(), rs.getString(5));
  }
}
