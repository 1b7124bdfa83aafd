package org.apache.calcite.jdbc;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@link CalciteMetaImpl} for subclasses outside Calcite's package: its constructor takes
 * Calcite's connection class, which is not public, and Calcite's connection casts its metadata
 * to {@code CalciteMetaImpl}, so a driver that changes the metadata must extend it. Lives in
 * Calcite's package only to name that class.
 */
public abstract class AccessibleCalciteMeta extends CalciteMetaImpl {
  /**
   * Creates the metadata of a connection.
   *
   * @param connection a connection Calcite's driver (or a subclass of it) created
   */
  protected AccessibleCalciteMeta(AvaticaConnection connection,
      CalciteMetaTableFactory tables, CalciteMetaColumnFactory columns) {
    super((CalciteConnectionImpl) connection, tables, columns);
  }

  /**
   * The SQL of a prepared statement, which Avatica's execute call does not carry (its handle
   * has no signature), or null if the statement is gone.
   */
  protected @Nullable String preparedSql(StatementHandle h) {
    try {
      final Meta.Signature signature = getConnection().server.getStatement(h).getSignature();
      return signature == null ? null : signature.sql;
    } catch (NoSuchStatementException e) {
      return null;
    }
  }
}
