package org.apache.calcite.avatica.jdbc;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Statement;

/**
 * The JDBC statement behind an Avatica server's {@link StatementInfo}, which keeps it in a
 * field of its package: a server that sets what Avatica's protocol does not carry (a query
 * timeout) must reach it. Lives in Avatica's package only to read that field.
 */
public final class AccessibleStatementInfo {
  private AccessibleStatementInfo() {
  }

  /** Returns the statement, null for the result of a metadata call. */
  public static @Nullable Statement statement(StatementInfo info) {
    return info.statement;
  }
}
