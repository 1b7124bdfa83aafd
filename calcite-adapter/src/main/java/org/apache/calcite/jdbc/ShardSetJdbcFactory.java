package org.apache.calcite.jdbc;

import io.shardset.calcite.jdbc.ClientErrors;
import io.shardset.calcite.jdbc.JavaTimeColumns;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.apache.calcite.config.CalciteConnectionConfig;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.TimeZone;

/**
 * Calcite's JDBC 4.1 objects, with connections whose statements fail with the SQLState and
 * reason of what went wrong ({@link ClientErrors}), and the failure as the cause: Calcite's
 * connection prepares without its {@code Meta} and reports every failure as "Error while
 * preparing statement [sql]", without a state or the reason, and Avatica's statement gives a
 * failure the state only by dropping its cause, and repeats the SQL text in the message.
 * Errors are SQLExceptions too (the {@link ExceptionInInitializerError} of generated code
 * that divides a constant by zero, say): a JDBC client expects nothing else from a statement.
 * Lives in Calcite's package only to extend Calcite's connection class, which is not public.
 */
public final class ShardSetJdbcFactory extends CalciteFactory {
  private final CalciteJdbc41Factory calcite = new CalciteJdbc41Factory();

  /** Creates the factory; Calcite's driver does, by its class name. */
  public ShardSetJdbcFactory() {
    super(4, 1);
  }

  @Override public AvaticaConnection newConnection(UnregisteredDriver driver,
      AvaticaFactory factory, String url, Properties info,
      @Nullable CalciteSchema rootSchema, @Nullable JavaTypeFactory typeFactory) {
    return new ShardSetConnection((Driver) driver, factory, url, info, rootSchema,
        typeFactory);
  }

  @Override public AvaticaDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
    return calcite.newDatabaseMetaData(connection);
  }

  @Override public AvaticaStatement newStatement(AvaticaConnection connection,
      Meta.@Nullable StatementHandle h, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) {
    return calcite.newStatement(connection, h, resultSetType, resultSetConcurrency,
        resultSetHoldability);
  }

  @Override public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.@Nullable StatementHandle h, Meta.Signature signature, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return calcite.newPreparedStatement(connection, h, signature, resultSetType,
        resultSetConcurrency, resultSetHoldability);
  }

  @Override public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    return new ShardSetResultSet(statement, (CalcitePrepare.CalciteSignature<?>) signature,
        newResultSetMetaData(statement, signature), timeZone, firstFrame);
  }

  @Override public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement,
      Meta.Signature signature) throws SQLException {
    return calcite.newResultSetMetaData(statement, signature);
  }

  /**
   * Calcite's result set, whose failures while it reads rows (a shard that fails or times out
   * after the first rows) are SQLExceptions with their state, where Calcite's are unchecked
   * exceptions, and Avatica's cancellation has no state; and which reads DATE, TIME and
   * TIMESTAMP columns as {@code java.time} values ({@link JavaTimeColumns}), which Calcite's
   * refuse.
   */
  private static final class ShardSetResultSet extends CalciteResultSet {
    ShardSetResultSet(AvaticaStatement statement, CalcitePrepare.CalciteSignature<?> signature,
        ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
        throws SQLException {
      super(statement, signature, metaData, timeZone, firstFrame);
    }

    @Override public boolean next() throws SQLException {
      try {
        return super.next();
      } catch (RuntimeException | Error e) {
        throw ClientErrors.classify(e);
      } catch (SQLException e) {
        throw e.getSQLState() == null ? ClientErrors.classify(e) : e;
      }
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
   * Calcite's connection, whose preparation failures say why, with their SQLState, and whose
   * settings are parsed once: Calcite parses the connection's properties anew each time it
   * asks for a setting, which its data context does for every execution (time zone, locale),
   * while the properties of an open connection never change (Avatica refuses client info).
   */
  private static final class ShardSetConnection extends CalciteConnectionImpl {
    private volatile @Nullable CalciteConnectionConfig config;
    /** The time zone the {@code timeZone} property names; null while not looked up, or when
     * the property is absent and the JVM's default applies. */
    private volatile @Nullable TimeZone namedTimeZone;

    ShardSetConnection(Driver driver, AvaticaFactory factory, String url, Properties info,
        @Nullable CalciteSchema rootSchema, @Nullable JavaTypeFactory typeFactory) {
      super(driver, factory, url, info, rootSchema, typeFactory);
    }

    @Override public CalciteConnectionConfig config() {
      CalciteConnectionConfig parsed = config;
      if (parsed == null) {
        parsed = super.config();
        config = parsed;
      }
      return parsed;
    }

    /** The connection's time zone; a copy, since a {@link TimeZone} can be changed. */
    @Override public TimeZone getTimeZone() {
      TimeZone named = namedTimeZone;
      if (named == null) {
        final String name = config().timeZone();
        if (name == null) {
          return TimeZone.getDefault();
        }
        named = TimeZone.getTimeZone(name);
        namedTimeZone = named;
      }
      return (TimeZone) named.clone();
    }

    /** Runs a statement's SQL; Avatica's statement passes an SQLException on as it is. */
    @Override protected Meta.ExecuteResult prepareAndExecuteInternal(AvaticaStatement statement,
        String sql, long maxRowCount) throws SQLException, NoSuchStatementException {
      try {
        return super.prepareAndExecuteInternal(statement, sql, maxRowCount);
      } catch (AvaticaClientRuntimeException e) {
        // ShardSetMeta's, the state given, around the failure.
        throw ClientErrors.classify(e.getCause() == null ? e : e.getCause());
      } catch (RuntimeException | Error e) {
        throw ClientErrors.classify(e);
      }
    }

    /** Runs a prepared statement, whose failures Avatica wraps without a state. */
    @Override protected ResultSet executeQueryInternal(AvaticaStatement statement,
        Meta.Signature signature, Meta.@Nullable Frame firstFrame, QueryState state,
        boolean isUpdate) throws SQLException {
      try {
        return super.executeQueryInternal(statement, signature, firstFrame, state, isUpdate);
      } catch (SQLException e) {
        throw ClientErrors.classify(e.getCause() == null ? e : e.getCause());
      } catch (RuntimeException | Error e) {
        throw ClientErrors.classify(e);
      }
    }

    /** Runs a prepared statement's batch; Avatica wraps exceptions but not errors. */
    @Override protected long[] executeBatchUpdateInternal(AvaticaPreparedStatement statement)
        throws SQLException {
      try {
        return super.executeBatchUpdateInternal(statement);
      } catch (Error e) {
        throw ClientErrors.classify(e);
      }
    }

    /** Runs a statement's batch; Avatica wraps exceptions but not errors. */
    @Override protected Meta.ExecuteBatchResult prepareAndUpdateBatch(AvaticaStatement statement,
        List<String> queries) throws NoSuchStatementException, SQLException {
      try {
        return super.prepareAndUpdateBatch(statement, queries);
      } catch (Error e) {
        throw ClientErrors.classify(e);
      }
    }

    @Override public CalcitePreparedStatement prepareStatement(String sql, int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) throws SQLException {
      try {
        return super.prepareStatement(sql, resultSetType, resultSetConcurrency,
            resultSetHoldability);
      } catch (SQLException e) {
        // Calcite's exception says only which SQL failed; its cause says why.
        throw ClientErrors.classify(e.getCause() == null ? e : e.getCause());
      } catch (RuntimeException | Error e) {
        throw ClientErrors.classify(e);
      }
    }
  }
}
