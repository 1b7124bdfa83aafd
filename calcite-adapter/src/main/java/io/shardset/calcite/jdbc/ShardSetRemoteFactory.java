package io.shardset.calcite.jdbc;

import io.shardset.session.SavepointStatement;
import io.shardset.session.SessionSavepoint;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.apache.calcite.avatica.remote.TypedValue;

import java.io.InputStream;
import java.io.Reader;
import java.sql.NClob;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Types;
import java.util.Properties;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JDBC objects of a {@code jdbc:shardset:remote:} connection: Avatica's, with the
 * {@link RemoteDatabaseMetaData} that lists keys and indexes, prepared statements that send
 * {@code java.time} values ({@link JavaTimeParameters}), result sets that read them
 * ({@link JavaTimeColumns}), and a connection whose statements fail with the server's reason
 * ({@link RemoteFailures}).
 */
final class ShardSetRemoteFactory implements AvaticaFactory {
  @Override public int getJdbcMajorVersion() {
    return 4;
  }

  @Override public int getJdbcMinorVersion() {
    return 1;
  }

  @Override public AvaticaConnection newConnection(UnregisteredDriver driver,
      AvaticaFactory factory, String url, Properties info) {
    return new Connection(driver, factory, url, info);
  }

  @Override public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(
      AvaticaConnection connection) {
    return new RemoteDatabaseMetaData(connection);
  }

  @Override public AvaticaStatement newStatement(AvaticaConnection connection,
      Meta.StatementHandle h, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) {
    return new Statement(connection, h, resultSetType, resultSetConcurrency,
        resultSetHoldability);
  }

  @Override public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return new PreparedStatement(connection, h, signature, resultSetType,
        resultSetConcurrency, resultSetHoldability);
  }

  @Override public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame)
      throws SQLException {
    return new ResultSet(statement, state, signature,
        newResultSetMetaData(statement, signature), timeZone, firstFrame);
  }

  @Override public AvaticaResultSetMetaData newResultSetMetaData(AvaticaStatement statement,
      Meta.Signature signature) {
    return new AvaticaResultSetMetaData(statement, null, signature);
  }

  /**
   * A remote connection, as Avatica's, whose prepared statements fail with the server's
   * reason ({@link RemoteFailures}): Avatica's connection wraps the error of their execution
   * in one without a state.
   */
  private static final class Connection extends AvaticaConnection {
    Connection(UnregisteredDriver driver, AvaticaFactory factory, String url,
        Properties info) {
      super(driver, factory, url, info);
    }

    /** Numbers the savepoints set without a name: the server knows them by one. */
    private final AtomicInteger savepoints = new AtomicInteger();

    @Override public void setAutoCommit(boolean autoCommit) throws SQLException {
      changing(() -> super.setAutoCommit(autoCommit));
    }

    @Override public void setReadOnly(boolean readOnly) throws SQLException {
      changing(() -> super.setReadOnly(readOnly));
    }

    @Override public void setTransactionIsolation(int level) throws SQLException {
      changing(() -> super.setTransactionIsolation(level));
    }

    @Override public void commit() throws SQLException {
      changing(super::commit);
    }

    @Override public void rollback() throws SQLException {
      changing(super::rollback);
    }

    /** A change of the connection's properties, or the end of its transaction: the server's
     * refusal as an SQLException with its state, where Avatica's client throws it
     * unchecked. */
    private void changing(SqlCall change) throws SQLException {
      try {
        change.run();
      } catch (RuntimeException e) {
        final SQLException server = RemoteFailures.of(e);
        if (server == null) {
          throw e;
        }
        throw server;
      }
    }

    /**
     * Sets a savepoint on the server with the SQL statement {@code SAVEPOINT}, which a
     * ShardSet server runs in the connection's session: Avatica's protocol has no savepoint
     * call.
     */
    @Override public java.sql.Savepoint setSavepoint() throws SQLException {
      return savepoint(new SessionSavepoint(savepoints.incrementAndGet(), null));
    }

    @Override public java.sql.Savepoint setSavepoint(String name) throws SQLException {
      if (name == null) {
        throw new SQLException("a savepoint's name must not be null", "HY009");
      }
      return savepoint(new SessionSavepoint(0, name));
    }

    private SessionSavepoint savepoint(SessionSavepoint savepoint) throws SQLException {
      run(SavepointStatement.text(SavepointStatement.Kind.SET, wireName(savepoint)));
      return savepoint;
    }

    /** The name the server knows a savepoint by; one without a name gets one. */
    private static String wireName(SessionSavepoint savepoint) {
      return savepoint.name() != null ? savepoint.name()
          : "SHARDSET_CLIENT_" + savepoint.number();
    }

    @Override public void rollback(java.sql.Savepoint savepoint) throws SQLException {
      run(SavepointStatement.text(SavepointStatement.Kind.ROLLBACK_TO, own(savepoint)));
    }

    @Override public void releaseSavepoint(java.sql.Savepoint savepoint) throws SQLException {
      run(SavepointStatement.text(SavepointStatement.Kind.RELEASE, own(savepoint)));
    }

    private static String own(java.sql.Savepoint savepoint) throws SQLException {
      if (savepoint instanceof SessionSavepoint remote) {
        return wireName(remote);
      }
      throw new SQLException("not a savepoint of this connection: " + savepoint, "3B001");
    }

    private void run(String sql) throws SQLException {
      try (java.sql.Statement statement = createStatement()) {
        statement.execute(sql);
      }
    }

    /**
     * Stops a statement's execution on the server ({@link TimedRemoteMeta#cancel}), without
     * setting the client's cancel flag, which Avatica never clears.
     */
    void cancel(AvaticaStatement statement) {
      if (meta instanceof TimedRemoteMeta timed) {
        timed.cancel(statement.handle);
      }
    }

    @Override protected java.sql.ResultSet executeQueryInternal(AvaticaStatement statement,
        Meta.Signature signature, Meta.Frame firstFrame, QueryState state, boolean isUpdate)
        throws SQLException {
      try {
        return super.executeQueryInternal(statement, signature, firstFrame, state, isUpdate);
      } catch (SQLException e) {
        throw RemoteFailures.unwrap(e);
      }
    }

    @Override protected long[] executeBatchUpdateInternal(AvaticaPreparedStatement statement)
        throws SQLException {
      try {
        return super.executeBatchUpdateInternal(statement);
      } catch (SQLException e) {
        throw RemoteFailures.unwrap(e);
      }
    }
  }

  /** A call that may throw an SQLException. */
  @FunctionalInterface
  private interface SqlCall {
    void run() throws SQLException;
  }

  /** A remote statement, as Avatica's, whose {@code cancel()} reaches the server. */
  private static final class Statement extends AvaticaStatement {
    Statement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) {
      super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    @Override public void cancel() throws SQLException {
      checkOpen();
      ((Connection) connection).cancel(this);
    }
  }

  /** A result set that reads DATE, TIME and TIMESTAMP columns as {@code java.time} values. */
  private static final class ResultSet extends AvaticaResultSet {
    ResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
        ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
        throws SQLException {
      super(statement, state, signature, metaData, timeZone, firstFrame);
    }

    @Override public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
      return JavaTimeColumns.getObject(this, columnIndex, type,
          () -> super.getObject(columnIndex, type));
    }

    @Override public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
      return getObject(findColumn(columnLabel), type);
    }
  }

  /**
   * A prepared statement that sends {@code java.time} values as the DATE, TIME and TIMESTAMP
   * values JDBC 4.2 maps them to, in the connection's time zone; Avatica's own cannot send
   * them.
   */
  private static final class PreparedStatement extends AvaticaPreparedStatement {
    PreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
        Meta.Signature signature, int resultSetType, int resultSetConcurrency,
        int resultSetHoldability) throws SQLException {
      super(connection, h, signature, resultSetType, resultSetConcurrency,
          resultSetHoldability);
    }

    @Override public void cancel() throws SQLException {
      checkOpen();
      ((Connection) connection).cancel(this);
    }

    @Override public void setObject(int parameterIndex, Object x) throws SQLException {
      if (!setTime(parameterIndex, x, Types.OTHER)) {
        super.setObject(parameterIndex, x);
      }
    }

    @Override public void setObject(int parameterIndex, Object x, int targetSqlType)
        throws SQLException {
      if (!setTime(parameterIndex, x, targetSqlType)) {
        super.setObject(parameterIndex, x, targetSqlType);
      }
    }

    @Override public void setObject(int parameterIndex, Object x, int targetSqlType,
        int scaleOrLength) throws SQLException {
      if (!setTime(parameterIndex, x, targetSqlType)) {
        super.setObject(parameterIndex, x, targetSqlType, scaleOrLength);
      }
    }

    /** Sets a {@code java.time} value; false for any other value, or a non-time type. */
    private boolean setTime(int parameterIndex, Object x, int sqlType) throws SQLException {
      if (x == null) {
        return false;
      }
      final TypedValue value = JavaTimeParameters.of(x, sqlType,
          connection.getTimeZone().toZoneId());
      if (value == null) {
        return false;
      }
      getSite(parameterIndex); // checks the index
      slots[parameterIndex - 1] = value;
      return true;
    }

    // JDBC 4.1 methods, which AvaticaPreparedStatement leaves to its subclasses.

    @Override public void setRowId(int parameterIndex, RowId x) throws SQLException {
      getSite(parameterIndex).setRowId(x);
    }

    @Override public void setNString(int parameterIndex, String value) throws SQLException {
      getSite(parameterIndex).setNString(value);
    }

    @Override public void setNCharacterStream(int parameterIndex, Reader value, long length)
        throws SQLException {
      getSite(parameterIndex).setNCharacterStream(value, length);
    }

    @Override public void setNClob(int parameterIndex, NClob value) throws SQLException {
      getSite(parameterIndex).setNClob(value);
    }

    @Override public void setClob(int parameterIndex, Reader reader, long length)
        throws SQLException {
      getSite(parameterIndex).setClob(reader, length);
    }

    @Override public void setBlob(int parameterIndex, InputStream inputStream, long length)
        throws SQLException {
      getSite(parameterIndex).setBlob(inputStream, length);
    }

    @Override public void setNClob(int parameterIndex, Reader reader, long length)
        throws SQLException {
      getSite(parameterIndex).setNClob(reader, length);
    }

    @Override public void setSQLXML(int parameterIndex, SQLXML xmlObject)
        throws SQLException {
      getSite(parameterIndex).setSQLXML(xmlObject);
    }

    @Override public void setAsciiStream(int parameterIndex, InputStream x, long length)
        throws SQLException {
      getSite(parameterIndex).setAsciiStream(x, length);
    }

    @Override public void setBinaryStream(int parameterIndex, InputStream x, long length)
        throws SQLException {
      getSite(parameterIndex).setBinaryStream(x, length);
    }

    @Override public void setCharacterStream(int parameterIndex, Reader reader, long length)
        throws SQLException {
      getSite(parameterIndex).setCharacterStream(reader, length);
    }

    @Override public void setAsciiStream(int parameterIndex, InputStream x)
        throws SQLException {
      getSite(parameterIndex).setAsciiStream(x);
    }

    @Override public void setBinaryStream(int parameterIndex, InputStream x)
        throws SQLException {
      getSite(parameterIndex).setBinaryStream(x);
    }

    @Override public void setCharacterStream(int parameterIndex, Reader reader)
        throws SQLException {
      getSite(parameterIndex).setCharacterStream(reader);
    }

    @Override public void setNCharacterStream(int parameterIndex, Reader value)
        throws SQLException {
      getSite(parameterIndex).setNCharacterStream(value);
    }

    @Override public void setClob(int parameterIndex, Reader reader) throws SQLException {
      getSite(parameterIndex).setClob(reader);
    }

    @Override public void setBlob(int parameterIndex, InputStream inputStream)
        throws SQLException {
      getSite(parameterIndex).setBlob(inputStream);
    }

    @Override public void setNClob(int parameterIndex, Reader reader) throws SQLException {
      getSite(parameterIndex).setNClob(reader);
    }
  }
}
