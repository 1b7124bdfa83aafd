package io.shardset.calcite;

import io.shardset.sequence.GlobalSequence;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;

/**
 * A global sequence as Calcite's validator finds it: a table of type {@code SEQUENCE}, which
 * {@code NEXT VALUE FOR} names (and JDBC metadata lists as a sequence). Its values come from
 * {@link SequenceValues}; the table itself has no rows to read.
 */
public final class SequenceTable extends AbstractTable implements ScannableTable {
  private final String name;
  private final @Nullable GlobalSequence sequence;
  /** Why the schema has no sequences' store, when it has none. */
  private final @Nullable String unavailable;

  private SequenceTable(String name, @Nullable GlobalSequence sequence,
      @Nullable String unavailable) {
    this.name = name;
    this.sequence = sequence;
    this.unavailable = unavailable;
  }

  static SequenceTable of(String name, GlobalSequence sequence) {
    return new SequenceTable(name, Objects.requireNonNull(sequence, "sequence"), null);
  }

  /** A sequence of a schema that has nowhere to take blocks from, and why. */
  static SequenceTable unavailable(String name, String reason) {
    return new SequenceTable(name, null, Objects.requireNonNull(reason, "reason"));
  }

  /**
   * The process's sequence.
   *
   * @throws IllegalStateException if the schema has no store for sequences
   */
  public GlobalSequence sequence() {
    if (sequence == null) {
      throw new IllegalStateException("sequence " + name + " cannot hand out values: "
          + unavailable);
    }
    return sequence;
  }

  @Override public Schema.TableType getJdbcTableType() {
    return Schema.TableType.SEQUENCE;
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return typeFactory.builder().add("NEXT_VALUE", SqlTypeName.BIGINT).build();
  }

  @Override public Enumerable<@Nullable Object[]> scan(DataContext root) {
    throw new IllegalStateException(name + " is a sequence, which has no rows: take its"
        + " values with NEXT VALUE FOR " + name);
  }
}
