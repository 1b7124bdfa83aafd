package io.shardset.catalog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The processes that serve a catalog's schemas, one row each per schema in
 * {@code SHARDSET_PROCESSES}: the version of the model the process runs, the version it has
 * <em>drained</em> (no execution under an older one still runs: what a resharding step waits
 * for), and its lease, renewed by a heartbeat written with the catalog database's clock.
 */
public final class ProcessRegistry {
  /** The table of processes. */
  public static final String TABLE = "SHARDSET_PROCESSES";

  /**
   * A process as the catalog saw it.
   *
   * @param description where it runs, such as {@code host pid 4242}
   * @param runsVersion the version of the model it runs
   * @param drainedVersion the newest version under which no older execution still runs
   * @param sinceHeartbeatMillis how long ago, by the catalog's clock, it renewed its lease
   * @param heartbeatMillis when it last renewed it, by the catalog's clock
   */
  public record Process(String processId, String schema, String description, long runsVersion,
      long drainedVersion, long leaseMillis, long sinceHeartbeatMillis, long heartbeatMillis) {
    public Process {
      Objects.requireNonNull(processId, "processId");
      Objects.requireNonNull(schema, "schema");
      Objects.requireNonNull(description, "description");
    }

    /** Whether its lease ran out: it serves nothing until it reaches the catalog again. */
    public boolean expired() {
      return sinceHeartbeatMillis > leaseMillis;
    }

    /** The process as messages name it. */
    @Override public String toString() {
      return description + " (runs version " + runsVersion + ", drained " + drainedVersion
          + ", last seen " + sinceHeartbeatMillis + " ms ago)";
    }
  }

  private final CatalogDatabase database;

  private ProcessRegistry(CatalogDatabase database) {
    this.database = database;
  }

  /** The registry of this catalog. */
  public static ProcessRegistry of(CatalogDatabase database) {
    return new ProcessRegistry(Objects.requireNonNull(database, "database"));
  }

  /**
   * Writes a process's row, or renews it: its versions, and a heartbeat of now.
   *
   * @return false if the process had no row (it is new, or a move excluded it and removed
   *     the row); the row is there afterwards either way
   */
  public boolean heartbeat(String processId, String schema, String description,
      long runsVersion, long drainedVersion, long leaseMillis) throws SQLException {
    try (Connection c = database.connect()) {
      return heartbeat(c, processId, schema, description, runsVersion, drainedVersion,
          leaseMillis);
    }
  }

  /** {@link #heartbeat(String, String, String, long, long, long)} on a connection of the
   * catalog that the caller keeps open. */
  public boolean heartbeat(Connection c, String processId, String schema, String description,
      long runsVersion, long drainedVersion, long leaseMillis) throws SQLException {
    final String now = CatalogDatabase.clockMillis(c);
    try (PreparedStatement p = c.prepareStatement("UPDATE " + TABLE + " SET RUNS_VERSION = ?,"
        + " DRAINED_VERSION = ?, HEARTBEAT_MILLIS = " + now + ", LEASE_MILLIS = ?"
        + " WHERE PROCESS_ID = ? AND SCHEMA_NAME = ?")) {
      p.setLong(1, runsVersion);
      p.setLong(2, drainedVersion);
      p.setLong(3, leaseMillis);
      p.setString(4, processId);
      p.setString(5, schema);
      if (p.executeUpdate() > 0) {
        return true;
      }
    }
    try (PreparedStatement p = c.prepareStatement("INSERT INTO " + TABLE + " (PROCESS_ID,"
        + " SCHEMA_NAME, DESCRIPTION, RUNS_VERSION, DRAINED_VERSION, HEARTBEAT_MILLIS,"
        + " LEASE_MILLIS) VALUES (?, ?, ?, ?, ?, " + now + ", ?)")) {
      p.setString(1, processId);
      p.setString(2, schema);
      p.setString(3, description);
      p.setLong(4, runsVersion);
      p.setLong(5, drainedVersion);
      p.setLong(6, leaseMillis);
      p.executeUpdate();
    }
    return false;
  }

  /** The processes registered for a schema, expired ones included, by description. */
  public List<Process> processes(String schema) throws SQLException {
    try (Connection c = database.connect()) {
      return processes(c, schema);
    }
  }

  /** {@link #processes(String)} on a connection of the catalog the caller keeps open. */
  public List<Process> processes(Connection c, String schema) throws SQLException {
    final List<Process> processes = new ArrayList<>();
    try (PreparedStatement p = c.prepareStatement("SELECT PROCESS_ID, DESCRIPTION, RUNS_VERSION,"
             + " DRAINED_VERSION, LEASE_MILLIS, " + CatalogDatabase.clockMillis(c)
             + " - HEARTBEAT_MILLIS, HEARTBEAT_MILLIS FROM " + TABLE
             + " WHERE SCHEMA_NAME = ? ORDER BY DESCRIPTION, PROCESS_ID")) {
      p.setString(1, schema);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          processes.add(new Process(rs.getString(1), schema, rs.getString(2), rs.getLong(3),
              rs.getLong(4), rs.getLong(5), rs.getLong(6), rs.getLong(7)));
        }
      }
    }
    return processes;
  }

  /**
   * Removes an expired process's row, unless it renewed its lease since {@code seen} was
   * read: a process that comes back finds no row and registers again having read the newest
   * version.
   *
   * @return whether the row was removed
   */
  public boolean exclude(Process seen) throws SQLException {
    try (Connection c = database.connect();
         PreparedStatement p = c.prepareStatement("DELETE FROM " + TABLE
             + " WHERE PROCESS_ID = ? AND SCHEMA_NAME = ? AND HEARTBEAT_MILLIS = ?")) {
      p.setString(1, seen.processId());
      p.setString(2, seen.schema());
      p.setLong(3, seen.heartbeatMillis());
      return p.executeUpdate() > 0;
    }
  }

  /** Removes a process's row: it stopped serving the schema. */
  public void remove(String processId, String schema) throws SQLException {
    try (Connection c = database.connect();
         PreparedStatement p = c.prepareStatement("DELETE FROM " + TABLE
             + " WHERE PROCESS_ID = ? AND SCHEMA_NAME = ?")) {
      p.setString(1, processId);
      p.setString(2, schema);
      p.executeUpdate();
    }
  }
}
