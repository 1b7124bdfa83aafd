package io.shardset.calcite.jdbc;

import io.shardset.session.KeyRequest;

import org.apache.calcite.avatica.Meta;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The generated keys a connection's statements ask for and get, which its {@code Meta} keeps
 * by statement: JDBC asks for them when a statement is prepared or run
 * ({@code prepareStatement(sql, RETURN_GENERATED_KEYS)}) and reads them afterwards
 * ({@code getGeneratedKeys()}), while the INSERT that makes them runs in between, in the
 * {@code Meta}.
 */
public interface StatementKeys {
  /** Makes the statement's INSERTs list the keys {@code request} asks for; null stops. */
  void requestKeys(int statementId, @Nullable KeyRequest request);

  /** The keys the statement's last execution gave: no rows when it asked for none. */
  Meta.MetaResultSet generatedKeys(int statementId);
}
