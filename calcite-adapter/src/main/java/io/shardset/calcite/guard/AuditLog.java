package io.shardset.calcite.guard;

import io.shardset.execution.TrackedStatement;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.Collection;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The audit trail, on the logger {@value #LOGGER} at INFO, one line per event: a session
 * opened or closed, an authentication refused (a server's), a write statement. A server writes
 * it with {@code --audit}; an embedded connection with the connection property
 * {@value #PROPERTY}{@code =true}. Route the logger to a file of its own to keep it. A write's
 * literals are masked as the slow-statement log masks them.
 */
public final class AuditLog {
  /** The logger's name. */
  public static final String LOGGER = "io.shardset.audit";
  /** The connection property that turns the trail of a connection's writes on. */
  public static final String PROPERTY = "audit";
  /** The connection property that names the address of the client a server serves. */
  public static final String ADDRESS = "clientAddress";
  /** The trail when it is off: nothing. */
  public static final AuditLog OFF = new AuditLog(false);
  /** The trail when it is on. */
  public static final AuditLog ON = new AuditLog(true);

  private static final Logger LOG = LoggerFactory.getLogger(LOGGER);
  /** The table a write statement names first. */
  private static final Pattern TARGET = Pattern.compile("(?is)^\\s*(?:INSERT\\s+INTO|UPSERT"
      + "\\s+INTO|UPDATE|DELETE\\s+FROM|MERGE\\s+INTO)\\s+((?:\"[^\"]+\"|[\\w$]+)"
      + "(?:\\s*\\.\\s*(?:\"[^\"]+\"|[\\w$]+))*)");

  private final boolean on;

  private AuditLog(boolean on) {
    this.on = on;
  }

  /** The trail on or off. */
  public static AuditLog of(boolean on) {
    return on ? ON : OFF;
  }

  /** Whether it records anything. */
  public boolean isOn() {
    return on;
  }

  /** An authentication that failed. */
  public void refused(String user, String address) {
    if (on) {
      LOG.info("authentication refused: user '{}' from {}", user, address);
    }
  }

  /** A session a user opened. */
  public void opened(String session, String user, String address) {
    if (on) {
      LOG.info("session {} opened: user '{}' from {}", session, user, address);
    }
  }

  /** A session that ended, and how. */
  public void closed(String session, String user, String address, String how) {
    if (on) {
      LOG.info("session {} closed ({}): user '{}' from {}", session, how, user, address);
    }
  }

  /** How a statement ended, with the SQLState of its failure when it has one. */
  public static String withState(String outcome, @Nullable Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException e && e.getSQLState() != null) {
        return outcome + " (SQLState " + e.getSQLState() + ")";
      }
    }
    return outcome;
  }

  /** Whether a statement writes: INSERT, UPSERT, UPDATE, DELETE or MERGE. */
  public static boolean writes(String sql) {
    return TARGET.matcher(sql).find();
  }

  /** A batch of writes of one session that ended, how, and each statement's changed rows. */
  public void wroteBatch(String user, @Nullable String address, String sql, long[] counts,
      String outcome) {
    if (!on) {
      return;
    }
    long rows = 0;
    for (long count : counts) {
      rows += Math.max(0, count);
    }
    final Matcher target = TARGET.matcher(sql);
    LOG.info(String.format(Locale.ROOT,
        "write batch of user '%s' from %s: %s, %d statements, %d rows changed, table %s: %s",
        user, address == null ? "this process" : address, outcome, counts.length, rows,
        target.find() ? target.group(1) : "?", SlowStatementLog.text(sql, false)));
  }

  /** A write statement that ended, how, and the rows it changed (-1 when it failed). */
  public void wrote(TrackedStatement statement, @Nullable String address, long rows,
      String outcome, Collection<String> shards) {
    if (!on) {
      return;
    }
    final Matcher target = TARGET.matcher(statement.sql());
    LOG.info(String.format(Locale.ROOT,
        "write statement %d of user '%s' from %s: %s, %s, table %s, shards %s: %s",
        statement.id(), statement.user(), address == null ? "this process" : address, outcome,
        rows < 0 ? "no rows changed" : rows + " rows changed",
        target.find() ? target.group(1) : "?", shards,
        SlowStatementLog.text(statement.sql(), false)));
  }
}
