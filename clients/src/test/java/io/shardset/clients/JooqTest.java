package io.shardset.clients;

import io.shardset.clients.Pools.Target;
import io.shardset.testing.ShardFixture;

import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Meta;
import org.jooq.Record;
import org.jooq.ResultQuery;
import org.jooq.SQLDialect;
import org.jooq.Schema;
import org.jooq.Table;
import org.jooq.UniqueKey;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * jOOQ over ShardSet, embedded and through the server, in the dialects a user would pick for
 * it (DEFAULT, POSTGRES, H2): its meta model from {@link java.sql.DatabaseMetaData}, DSL
 * queries with paging, {@code fetchCount} and an insert, compared with the same jOOQ query on
 * the unsharded reference.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JooqTest {
  private static final Table<Record> ORDERS = DSL.table(DSL.name(ShardedFixture.SCHEMA, "ORDERS"));
  private static final Field<Long> ID = DSL.field(DSL.name("ID"), SQLDataType.BIGINT);
  private static final Field<Long> CUSTOMER_ID =
      DSL.field(DSL.name("CUSTOMER_ID"), SQLDataType.BIGINT);
  private static final Field<Timestamp> ORDERED_AT =
      DSL.field(DSL.name("ORDERED_AT"), SQLDataType.TIMESTAMP(3)).coerce(Timestamp.class);
  private static final Field<BigDecimal> TOTAL =
      DSL.field(DSL.name("TOTAL"), SQLDataType.DECIMAL(12, 2));
  private static final Field<String> STATUS =
      DSL.field(DSL.name("STATUS"), SQLDataType.VARCHAR(10));

  private ShardedFixture fixture;
  private final AtomicLong nextKeys = new AtomicLong(20_000);

  @BeforeAll void createModel(@TempDir Path folder) throws Exception {
    fixture = ShardedFixture.create(folder);
  }

  @AfterAll void close() throws SQLException {
    fixture.close();
  }

  /** Every dialect embedded, and one through the server, which plans the same text alike. */
  static Stream<Arguments> dialects() {
    return Stream.of(Arguments.of(SQLDialect.DEFAULT, Target.EMBEDDED),
        Arguments.of(SQLDialect.POSTGRES, Target.EMBEDDED),
        Arguments.of(SQLDialect.H2, Target.EMBEDDED),
        Arguments.of(SQLDialect.POSTGRES, Target.REMOTE));
  }

  private Connection connect(Target target) throws SQLException {
    return DriverManager.getConnection(target == Target.EMBEDDED ? fixture.embeddedUrl()
        : fixture.remoteUrl());
  }

  /** The rows of the query built by {@code query} on ShardSet, after checking that the
   * reference returns the same. */
  private List<String> both(DSLContext shardset,
      Function<DSLContext, ResultQuery<? extends Record>> query) throws SQLException {
    final List<String> actual = ShardFixture.rows(query.apply(shardset).fetch().intoResultSet());
    try (Connection reference = fixture.reference()) {
      final DSLContext h2 = DSL.using(reference, SQLDialect.H2);
      assertEquals(ShardFixture.rows(query.apply(h2).fetch().intoResultSet()), actual,
          query.apply(shardset).getSQL());
    }
    return actual;
  }

  /** The meta model of the DEFAULT dialect, which reads {@link java.sql.DatabaseMetaData};
   * POSTGRES and H2 read their database's own catalog tables instead (pg_catalog,
   * INFORMATION_SCHEMA.KEY_COLUMN_USAGE), which ShardSet does not have. */
  @ParameterizedTest @EnumSource(Target.class)
  void metaListsTablesFieldsAndTypes(Target target) throws Exception {
    try (Connection c = connect(target)) {
      final Meta meta = DSL.using(c, SQLDialect.DEFAULT).meta();
      final Schema schema = meta.getSchemas(ShardedFixture.SCHEMA).get(0);
      final List<String> tables = new ArrayList<>();
      for (Table<?> table : schema.getTables()) {
        tables.add(table.getName());
      }
      assertEquals(ShardedFixture.TABLES, tables);
      final List<String> fields = new ArrayList<>();
      for (Field<?> field : schema.getTable("ORDERS").fields()) {
        final DataType<?> type = field.getDataType();
        fields.add(field.getName() + " " + type.getType().getSimpleName()
            + (type.hasPrecision() && type.precision() > 0 ? "(" + type.precision()
                + (type.hasScale() ? ", " + type.scale() : "") + ")" : "")
            + (type.hasLength() && type.length() > 0 ? "(" + type.length() + ")" : "")
            + (type.nullable() ? "" : " not null"));
      }
      assertEquals(List.of("ID Long not null", "CUSTOMER_ID Long not null",
          "ORDERED_AT Timestamp(3) not null", "TOTAL BigDecimal(12, 2) not null",
          "STATUS String(10)"), fields);
    }
  }

  private static void assertPrimaryKeys(Meta meta) {
    final Schema schema = meta.getSchemas(ShardedFixture.SCHEMA).get(0);
    final UniqueKey<?> key = schema.getTable("ORDERS").getPrimaryKey();
    assertNotNull(key, "ORDERS has no primary key");
    assertEquals("ORDERS_PK", key.getName());
    assertEquals(List.of("ID"), key.getFields().stream().map(Field::getName).toList());
  }

  @Test void metaHasPrimaryKeysEmbedded() throws Exception {
    try (Connection c = connect(Target.EMBEDDED)) {
      assertPrimaryKeys(DSL.using(c, SQLDialect.DEFAULT).meta());
    }
  }

  @Test void metaHasPrimaryKeysRemote() throws Exception {
    try (Connection c = connect(Target.REMOTE)) {
      assertPrimaryKeys(DSL.using(c, SQLDialect.DEFAULT).meta());
    }
  }

  @ParameterizedTest @MethodSource("dialects")
  void pagesOfASortedQueryTogetherAreTheWholeResult(SQLDialect dialect, Target target)
      throws Exception {
    try (Connection c = connect(target)) {
      final DSLContext ctx = DSL.using(c, dialect);
      final List<String> whole = both(ctx, d -> d.select(ID, CUSTOMER_ID, TOTAL, STATUS)
          .from(ORDERS).where(TOTAL.gt(new BigDecimal("50")).and(ID.le(120L)))
          .orderBy(TOTAL.desc(), ID));
      final List<String> paged = new ArrayList<>();
      for (int offset = 0; offset < whole.size() + 25; offset += 25) {
        final int from = offset;
        paged.addAll(both(ctx, d -> d.select(ID, CUSTOMER_ID, TOTAL, STATUS).from(ORDERS)
            .where(TOTAL.gt(new BigDecimal("50")).and(ID.le(120L)))
            .orderBy(TOTAL.desc(), ID).limit(25).offset(from)));
      }
      assertEquals(whole, paged);
      both(ctx, d -> d.select(STATUS, DSL.count(), DSL.sum(TOTAL)).from(ORDERS)
          .where(ORDERED_AT.ge(Timestamp.valueOf("2024-03-15 00:00:00")).and(ID.le(120L)))
          .groupBy(STATUS).orderBy(STATUS.asc().nullsFirst()));
      both(ctx, d -> d.select(ID, ORDERED_AT).from(ORDERS).where(CUSTOMER_ID.in(3L, 9L))
          .and(ID.le(120L)).orderBy(ID));
    }
  }

  @ParameterizedTest @MethodSource("dialects")
  void fetchCountCountsTheQuerysRows(SQLDialect dialect, Target target) throws Exception {
    try (Connection c = connect(target); Connection reference = fixture.reference()) {
      final DSLContext ctx = DSL.using(c, dialect);
      assertEquals(ShardedFixture.ORDERS, ctx.fetchCount(ORDERS, ID.le(120L)));
      final int expected = DSL.using(reference, SQLDialect.H2).fetchCount(
          DSL.select(ID).from(ORDERS).where(STATUS.eq("PAID")));
      assertEquals(expected, ctx.fetchCount(ctx.select(ID).from(ORDERS)
          .where(STATUS.eq("PAID")).and(ID.le(120L))));
      assertEquals(3, ctx.fetchCount(ctx.select(ID).from(ORDERS).where(ID.le(120L))
          .orderBy(ID).limit(3)));
    }
  }

  @ParameterizedTest @MethodSource("dialects")
  void insertWritesARowWhereItIsFound(SQLDialect dialect, Target target) throws Exception {
    final long key = nextKeys.getAndAdd(10);
    try (Connection c = connect(target)) {
      final DSLContext ctx = DSL.using(c, dialect);
      assertEquals(2, ctx.insertInto(ORDERS, ID, CUSTOMER_ID, ORDERED_AT, TOTAL, STATUS)
          .values(key, 11L, Timestamp.valueOf("2025-05-06 07:08:09.25"), new BigDecimal("12.50"),
              "NEW")
          .values(key + 1, 12L, Timestamp.valueOf("2025-05-07 00:00:00"), new BigDecimal("1.05"),
              null)
          .execute());
      assertEquals(List.of(key + ", 11, 2025-05-06 07:08:09.25, 12.5, NEW",
          (key + 1) + ", 12, 2025-05-07 00:00:00.0, 1.05, NULL"),
          ShardFixture.rows(ctx.select(ID, CUSTOMER_ID, ORDERED_AT, TOTAL, STATUS).from(ORDERS)
              .where(ID.between(key, key + 9)).orderBy(ID).fetch().intoResultSet()));
      assertEquals(1, ctx.update(ORDERS).set(STATUS, "PAID").where(ID.eq(key)).execute());
      assertEquals(1, ctx.deleteFrom(ORDERS).where(ID.eq(key + 1)).execute());
      assertEquals(List.of("PAID"), ctx.select(STATUS).from(ORDERS)
          .where(ID.between(key, key + 9)).fetch(STATUS));
    }
  }
}
