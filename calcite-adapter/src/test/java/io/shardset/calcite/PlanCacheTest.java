package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.prepare.PlanCache;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.runtime.Hook;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The plan cache of {@code jdbc:shardset:} connections: repeated and literal-only-different
 * statements are planned once, and every execution prunes by its own values.
 */
class PlanCacheTest extends SalesDataTestBase {
  /** The default chunk count: 120 per shard. */
  private static final int CHUNKS = 480;

  private final AtomicInteger javaPlans = new AtomicInteger();

  @Override Connection open(String model) throws SQLException {
    return Connector.SHARDSET.open(model);
  }

  @BeforeEach void dropPlans() throws SQLException {
    cache().invalidate(connection);
    javaPlans.set(0);
  }

  private PlanCache cache() throws SQLException {
    return ((ShardSetDriver) DriverManager.getDriver(ShardSetDriver.CONNECT_STRING_PREFIX))
        .planCache();
  }

  @Test void repeatedTextIsPlannedOnce() throws SQLException {
    final String sql = "SELECT REGION, COUNT(*) AS N FROM CUSTOMERS GROUP BY REGION";
    final List<String> expected = sorted(fixture.oracleRows(sql));
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (int i = 0; i < 3; i++) {
        try (PreparedStatement p = connection.prepareStatement(sql);
             ResultSet rs = p.executeQuery()) {
          assertEquals(expected, sorted(ShardFixture.rows(rs)));
        }
        assertEquals(expected, sorted(rows(sql)));
      }
    }
    assertEquals(1, javaPlans.get());
  }

  @Test void keyLiteralsShareOnePlanAndEachPrunesToItsOwnShard() throws SQLException {
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (long id : new long[] {42, 7, 300, 42}) {
        final String sql = "SELECT CUSTOMER_ID, NAME FROM CUSTOMERS WHERE CUSTOMER_ID = " + id;
        try (PreparedStatement p = connection.prepareStatement(sql)) {
          assertEquals(0, p.getParameterMetaData().getParameterCount(), sql);
          assertEquals(hash(id), reached(p), sql);
        }
        assertEquals(fixture.oracleRows(sql), rows(sql), sql);
      }
    }
    assertEquals(1, javaPlans.get());
  }

  /** Decimal literals on a BIGINT key stay literal, so no plan is shared with the integer
   * literals' parameterized one, in either order: 42.0 reaches 42's shard and 42.5 none. */
  @Test void decimalLiteralsOnABigintKeyPruneByTheirOwnValue() throws SQLException {
    final String where = "SELECT CUSTOMER_ID, NAME FROM CUSTOMERS WHERE CUSTOMER_ID ";
    final String[] sqls = {"= 7", "= 42.0", "= 42.5", "= 42", "IN (42.0, 2.5, 7)", "IN (42, 7)",
        "= 42.5", "= 42.0", "= 7"};
    final List<Set<String>> shards = List.of(hash(7), hash(42), Set.of(), hash(42),
        hash(42, 7), hash(42, 7), Set.of(), hash(42), hash(7));
    for (int i = 0; i < sqls.length; i++) {
      final String sql = where + sqls[i];
      try (PreparedStatement p = connection.prepareStatement(sql)) {
        assertEquals(shards.get(i), reached(p), sql);
      }
      assertEquals(sorted(fixture.oracleRows(sql)), sorted(rows(sql)), sql);
    }
  }

  @Test void inListsAndStringsSharePlansAndStayRight() throws SQLException {
    final String[] sqls = {
        "SELECT ORDER_ID FROM ORDERS WHERE CUSTOMER_ID IN (1, 150) ORDER BY ORDER_ID",
        "SELECT ORDER_ID FROM ORDERS WHERE CUSTOMER_ID IN (42, 7) ORDER BY ORDER_ID",
        "SELECT ACCOUNT_ID FROM ACCOUNTS WHERE REGION = 'EU' ORDER BY ACCOUNT_ID",
        "SELECT ACCOUNT_ID FROM ACCOUNTS WHERE REGION = 'US' ORDER BY ACCOUNT_ID",
    };
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (String sql : sqls) {
        assertEquals(fixture.oracleRows(sql), rows(sql), sql);
      }
      try (PreparedStatement p = connection.prepareStatement(sqls[1])) {
        assertEquals(hash(42, 7), reached(p));
      }
      try (PreparedStatement p = connection.prepareStatement(sqls[2])) {
        assertEquals(Set.of("s0"), reached(p));
      }
      try (PreparedStatement p = connection.prepareStatement(sqls[3])) {
        assertEquals(Set.of("s1"), reached(p));
      }
    }
    assertEquals(2, javaPlans.get());
  }

  @Test void literalsThatShapeThePlanAreNotParameterized() throws SQLException {
    final String[] sqls = {
        "SELECT CUSTOMER_ID FROM CUSTOMERS ORDER BY CUSTOMER_ID LIMIT 3",
        "SELECT CUSTOMER_ID FROM CUSTOMERS ORDER BY CUSTOMER_ID LIMIT 4",
        "SELECT CUSTOMER_ID, 1 FROM CUSTOMERS WHERE CUSTOMER_ID = 5",
        "SELECT CUSTOMER_ID, 2 FROM CUSTOMERS WHERE CUSTOMER_ID = 5",
        "SELECT COUNT(*) FROM CUSTOMERS WHERE NAME LIKE 'A%'",
        "SELECT COUNT(*) FROM CUSTOMERS WHERE NAME LIKE 'B%'",
    };
    assertRightAndPlanned(6, sqls);
  }

  @Test void literalsNotFittingTheColumnTypeKeepTheirOwnPlan() throws SQLException {
    // 3000000000 is no INTEGER and 'EUROPEAN1' is longer than VARCHAR(8): as parameters they
    // would not compare as the literals do, so each such statement is planned as written.
    final String[] sqls = {
        "SELECT ACCOUNT_ID FROM ACCOUNTS WHERE ACCOUNT_ID = 3000000000",
        "SELECT ACCOUNT_ID FROM ACCOUNTS WHERE REGION = 'EUROPEAN1'",
        "SELECT ACCOUNT_ID FROM ACCOUNTS WHERE ACCOUNT_ID = 3",
    };
    // Two parameterized plans, the first two statements' own plans; the third reuses the first
    // parameterized plan.
    assertRightAndPlanned(4, sqls);
  }

  @Test void signedLiteralsKeepTheirSign() throws SQLException {
    // Were the sign lost, the first would read 5 < ACCOUNT_ID < 4 and return nothing.
    assertRightAndPlanned(1,
        "SELECT ACCOUNT_ID FROM ACCOUNTS WHERE ACCOUNT_ID > -5 AND ACCOUNT_ID < 4"
            + " ORDER BY ACCOUNT_ID",
        "SELECT ACCOUNT_ID FROM ACCOUNTS WHERE ACCOUNT_ID > 1 AND ACCOUNT_ID < 7"
            + " ORDER BY ACCOUNT_ID");
    assertEquals(List.of("1", "2", "3"),
        sorted(rows("SELECT ACCOUNT_ID FROM ACCOUNTS WHERE ACCOUNT_ID > -5 AND ACCOUNT_ID < 4")));
  }

  @Test void statementsWithParametersAreCachedByTextOnly() throws SQLException {
    final String sql = "SELECT CUSTOMER_ID FROM CUSTOMERS WHERE CUSTOMER_ID = ? AND REGION = 'EU'";
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (long id : new long[] {42, 7}) {
        try (PreparedStatement p = connection.prepareStatement(sql)) {
          assertEquals(1, p.getParameterMetaData().getParameterCount());
          p.setLong(1, id);
          assertEquals(hash(id), reached(p));
          try (ResultSet rs = p.executeQuery()) {
            assertEquals(fixture.oracleRows(sql.replace("?", Long.toString(id))),
                ShardFixture.rows(rs));
          }
        }
      }
    }
    assertEquals(1, javaPlans.get());
  }

  /** The cache is the process's: see {@link SharedPlansTest} for what a shared plan keeps of
   * the connection that runs it. */
  @Test void anotherConnectionPlansNothingItHasSeen() throws SQLException {
    final String sql = "SELECT COUNT(*) FROM ORDERS WHERE CUSTOMER_ID = 9";
    try (Hook.Closeable ignored = countJavaPlans()) {
      assertEquals(fixture.oracleRows(sql), rows(sql));
      try (Connection other = open(SalesData.model(fixture));
           Statement s = other.createStatement();
           ResultSet rs = s.executeQuery(sql)) {
        assertEquals(fixture.oracleRows(sql), ShardFixture.rows(rs));
      }
      assertEquals(fixture.oracleRows(sql), rows(sql));
    }
    assertEquals(1, javaPlans.get());
  }

  /** A cached statement fails as an uncached one: Calcite's driver with the SQL text and the
   * reason as the cause, ShardSet's with the reason and its SQLState, every time. */
  @Test void errorsAreCalcitesOwnWithTheirState() throws SQLException {
    final String sql = "SELECT NOPE FROM CUSTOMERS WHERE CUSTOMER_ID = 1";
    final String reason = "From line 1, column 8 to line 1, column 11: Column 'NOPE' not"
        + " found in any table";
    try (Connection plain = ShardFixture.connect(SalesData.model(fixture))) {
      final SQLException calcite =
          assertThrows(SQLException.class, () -> plain.prepareStatement(sql));
      assertEquals("Error while preparing statement [" + sql + "]", calcite.getMessage());
      assertEquals(reason, calcite.getCause().getMessage());
    }
    for (int i = 0; i < 2; i++) {
      final SQLException cached =
          assertThrows(SQLException.class, () -> connection.prepareStatement(sql));
      assertEquals(reason, cached.getMessage());
      assertEquals("42S22", cached.getSQLState());
    }
  }

  /** A plan whose generated code divides a constant by zero fails in its class's static
   * initialiser: every run fails the same way, not only the first (later ones would find the
   * class unusable), also a prepared statement run again and a plan shared by literals; the
   * connection still runs other statements. */
  @Test void aPlanFailingInItsInitialiserFailsAlikeEveryTime() throws SQLException {
    for (String sql : new String[] {"SELECT 1/0 FROM CUSTOMERS",
        "SELECT 1/0 FROM CUSTOMERS WHERE CUSTOMER_ID = 5"}) {
      try (PreparedStatement prepared = connection.prepareStatement(sql)) {
        for (int i = 0; i < 3; i++) {
          try (Statement s = connection.createStatement()) {
            assertDividedByZero(sql + ", run " + i, () -> s.executeQuery(sql));
          }
          assertDividedByZero(sql + ", prepared run " + i, prepared::executeQuery);
        }
      }
    }
    final String count = "SELECT COUNT(*) FROM CUSTOMERS";
    assertEquals(fixture.oracleRows(count), rows(count));
  }

  private static void assertDividedByZero(String run, Query query) {
    final SQLException e = assertThrows(SQLException.class, () -> {
      try (ResultSet rs = query.run()) {
        rs.next();
      }
    }, run);
    assertEquals("22012", e.getSQLState(), run + ": " + e);
    assertEquals("/ by zero", e.getMessage(), run);
  }

  /** A query to run. */
  @FunctionalInterface
  private interface Query {
    ResultSet run() throws SQLException;
  }

  @Test void boundedAndInvalidated() throws SQLException {
    final PlanCache small = new PlanCache(2);
    final ShardSetDriver driver = new ShardSetDriver(small);
    try (Connection c = driver.connect(ShardSetDriver.CONNECT_STRING_PREFIX,
        Connector.info(SalesData.model(fixture)))) {
      for (String table : new String[] {"CUSTOMERS", "ORDERS", "ACCOUNTS"}) {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
          rs.next();
        }
      }
      final CalciteSchema root =
          CalciteSchema.from(c.unwrap(CalciteConnection.class).getRootSchema());
      assertEquals(2, small.size(root));
      assertEquals(3, small.plans());
      // What a server keeps for its next start: the statements of the plans held, at most as
      // many as asked for.
      assertEquals(2, small.statements(c, 10).size());
      assertEquals(1, small.statements(c, 1).size());
      small.invalidate(c);
      assertEquals(0, small.size(root));
      try (Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ORDERS")) {
        rs.next();
      }
      assertEquals(4, small.plans());
      assertEquals(0, small.hits());
    }
  }

  /** Runs each statement, checks its rows against the oracle, and checks how many plans
   * they took together. */
  private void assertRightAndPlanned(int plans, String... sqls) throws SQLException {
    try (Hook.Closeable ignored = countJavaPlans()) {
      for (String sql : sqls) {
        assertEquals(fixture.oracleRows(sql), rows(sql), sql);
      }
    }
    assertEquals(plans, javaPlans.get());
  }

  private Hook.Closeable countJavaPlans() {
    final Consumer<Object> count = o -> javaPlans.incrementAndGet();
    return Hook.JAVA_PLAN.addThread(count);
  }

  private static Set<String> hash(long... ids) {
    final Set<String> shards = new TreeSet<>();
    for (long id : ids) {
      shards.add("s" + shardOfLong(id, CHUNKS, 4));
    }
    return shards;
  }

  @Test void limitParametersBoundWithSetLong() throws SQLException {
    final String sql = "SELECT ORDER_ID FROM ORDERS WHERE CUSTOMER_ID < 50 ORDER BY ORDER_ID"
        + " LIMIT ? OFFSET ?";
    final List<String> expected = fixture.oracleRows(
        sql.replace("LIMIT ? OFFSET ?", "LIMIT 4 OFFSET 2"));
    for (int i = 0; i < 2; i++) {
      try (PreparedStatement p = connection.prepareStatement(sql)) {
        p.setLong(1, 4);
        p.setLong(2, 2);
        try (ResultSet rs = p.executeQuery()) {
          assertEquals(expected, ShardFixture.rows(rs));
        }
      }
    }
  }
}
