package org.apache.calcite.jdbc;

import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.TimeZone;

/**
 * {@link CalciteResultSet} for subclasses outside Calcite's package, whose constructor is not
 * public: a driver whose result sets read more types than Calcite's extends it. Lives in
 * Calcite's package only to call that constructor.
 */
public abstract class AccessibleCalciteResultSet extends CalciteResultSet {
  /** Creates a result set as {@link CalciteJdbc41Factory#newResultSet} does. */
  protected AccessibleCalciteResultSet(AvaticaStatement statement, Meta.Signature signature,
      ResultSetMetaData resultSetMetaData, TimeZone timeZone, Meta.Frame firstFrame)
      throws SQLException {
    super(statement, (CalcitePrepare.CalciteSignature) signature, resultSetMetaData, timeZone,
        firstFrame);
  }
}
