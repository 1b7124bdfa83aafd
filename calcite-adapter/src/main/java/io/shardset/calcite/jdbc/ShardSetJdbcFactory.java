package io.shardset.calcite.jdbc;

import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.jdbc.AccessibleCalciteResultSet;
import org.apache.calcite.jdbc.CalciteJdbc41Factory;
import org.apache.calcite.jdbc.CalciteResultSet;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.TimeZone;

/**
 * The JDBC objects of a {@code jdbc:shardset:} connection: Calcite's, with result sets that
 * read DATE, TIME and TIMESTAMP columns as {@code java.time} values
 * ({@link JavaTimeColumns}), which Calcite's refuse. {@link java.sql.DriverManager} finds it
 * by name ({@link ShardSetDriver}); it needs a public constructor.
 */
public final class ShardSetJdbcFactory extends CalciteJdbc41Factory {
  /** Creates the factory. */
  public ShardSetJdbcFactory() {
  }

  @Override public CalciteResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame)
      throws SQLException {
    return new ResultSet(statement, signature, newResultSetMetaData(statement, signature),
        timeZone, firstFrame);
  }

  /** A result set that reads DATE, TIME and TIMESTAMP columns as {@code java.time} values. */
  private static final class ResultSet extends AccessibleCalciteResultSet {
    ResultSet(AvaticaStatement statement, Meta.Signature signature,
        ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
        throws SQLException {
      super(statement, signature, metaData, timeZone, firstFrame);
    }

    @Override public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
      return JavaTimeColumns.getObject(this, columnIndex, type,
          () -> super.getObject(columnIndex, type));
    }

    @Override public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
      return getObject(findColumn(columnLabel), type);
    }
  }
}
