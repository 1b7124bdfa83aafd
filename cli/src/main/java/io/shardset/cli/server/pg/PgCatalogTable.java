package io.shardset.cli.server.pg;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A table of a PostgreSQL catalog whose rows are computed from the root schema of the
 * statement that reads it: it keeps nothing of any connection.
 */
final class PgCatalogTable extends AbstractTable implements ScannableTable {
  /** A column: its name and type. */
  record Column(String name, SqlTypeName type) {
  }

  private final List<Column> columns;
  private final Function<PgCatalogModel, List<Object[]>> rows;

  private PgCatalogTable(List<Column> columns, Function<PgCatalogModel, List<Object[]>> rows) {
    this.columns = List.copyOf(columns);
    this.rows = rows;
  }

  /**
   * A table of columns written {@code name:type}, the types {@code int}, {@code bigint},
   * {@code short}, {@code real}, {@code bool} and {@code text}.
   */
  static PgCatalogTable of(String columns, Function<PgCatalogModel, List<Object[]>> rows) {
    final List<Column> parsed = new ArrayList<>();
    for (String column : columns.split(",")) {
      final String[] parts = column.trim().split(":");
      parsed.add(new Column(parts[0], type(parts[1])));
    }
    return new PgCatalogTable(parsed, rows);
  }

  private static SqlTypeName type(String name) {
    switch (name) {
    case "int":
      return SqlTypeName.INTEGER;
    case "bigint":
      return SqlTypeName.BIGINT;
    case "short":
      return SqlTypeName.SMALLINT;
    case "real":
      return SqlTypeName.REAL;
    case "bool":
      return SqlTypeName.BOOLEAN;
    case "text":
      return SqlTypeName.VARCHAR;
    default:
      throw new IllegalArgumentException("no catalog type " + name);
    }
  }

  /** A table without rows. */
  static PgCatalogTable empty(String columns) {
    return of(columns, model -> List.of());
  }

  int width() {
    return columns.size();
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    final RelDataTypeFactory.Builder builder = typeFactory.builder();
    for (Column column : columns) {
      builder.add(column.name().toLowerCase(Locale.ROOT), typeFactory.createTypeWithNullability(
          typeFactory.createSqlType(column.type()), true));
    }
    return builder.build();
  }

  @Override public Enumerable<Object[]> scan(DataContext root) {
    return Linq4j.asEnumerable(rows.apply(PgCatalogModel.of(root.getRootSchema(),
        root.getTypeFactory())));
  }
}
