package io.shardset.calcite.runtime;

import org.apache.calcite.sql.validate.SqlValidatorUtil;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the text of a statement depends on in the physical tables one scan reads, besides
 * their names: whether they are one table or a UNION ALL of several (a derived table, which
 * takes one of the generated aliases), the column names of the first (which name the columns
 * of the union), and whether a table read alone has an alias other than its name (the SQL
 * writer met the name before, as in a self-join: {@code T AS T0}), which changes where the
 * writer names aliases.
 *
 * @param union whether the scan reads several tables
 * @param columns the column names of the first table
 * @param renamed whether the scan reads one table whose alias differs from its name
 */
public record ScanShape(boolean union, List<String> columns, boolean renamed) {
  public ScanShape {
    columns = List.copyOf(columns);
  }

  /** The shape of the tables each scan reads. */
  public static List<ScanShape> of(List<List<PhysicalTable>> scans) {
    final List<List<String>> aliases = aliases(scans);
    final List<ScanShape> shapes = new ArrayList<>();
    for (int scan = 0; scan < scans.size(); scan++) {
      final List<PhysicalTable> tables = scans.get(scan);
      shapes.add(new ScanShape(tables.size() > 1, tables.get(0).columns(),
          tables.size() == 1 && !aliases.get(scan).get(0).equals(tables.get(0).simpleName())));
    }
    return shapes;
  }

  /** The alias of each table, as the SQL writer gives them: in the order it meets the
   * tables (scan by scan), a name already taken gets a number. */
  static List<List<String>> aliases(List<List<PhysicalTable>> scans) {
    final Set<String> used = new HashSet<>();
    final List<List<String>> aliases = new ArrayList<>();
    for (List<PhysicalTable> scan : scans) {
      final List<String> names = new ArrayList<>();
      for (PhysicalTable table : scan) {
        names.add(SqlValidatorUtil.uniquify(table.simpleName(), used,
            SqlValidatorUtil.EXPR_SUGGESTER));
      }
      aliases.add(names);
    }
    return aliases;
  }
}
