package io.shardset.reshard;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.model.ShardSetModel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A row of a duplicated table written by a writer that does not know the joining shard yet,
 * after the prepare step copied the table there, still reaches the new shard: the mover copies
 * duplicated tables again once the model names the shard.
 */
class DuplicatedRefreshTest {
  @TempDir
  Path folder;

  private FamilyData family;

  @AfterEach void closeDatabases() {
    family.close();
  }

  @Test void rowsWrittenAfterThePrepareCopyReachTheNewShard() throws Exception {
    family = new FamilyData(folder, "refresh", false, 300, 600);
    final Path model = family.writeModel(4);
    family.load(model, 4);
    family.open("s4");
    final List<String> events = new ArrayList<>();
    final MoveListener lateWriter = new MoveListener() {
      @Override public void step(Step step, String detail) {
        events.add(step + " " + detail);
        if (step == Step.ANNOUNCE && detail.equals("start")) {
          // A loader that read the model before the shard joined writes to the old shards.
          for (int shard = 0; shard < 4; shard++) {
            execute("s" + shard, "INSERT INTO COUNTRIES VALUES ('XX', 'Country XX')");
          }
        }
      }

      @Override public void rows(long copied, long total) {
      }
    };
    final ShardSetModel start = ModelFile.read(model).model(FamilyShards.SCHEMA);
    new Mover(model, FamilyShards.SCHEMA,
        new Mover.Settings(Duration.ZERO, Duration.ofSeconds(30), 500), lateWriter,
        TablePreparer::prepare, ShardSetRuntime.get().topology())
        .apply(ReshardPlanner.plan(start, new Operation.AddShard("s4",
            Map.of("name", "s4", "jdbcUrl", family.url("s4")), null)));

    assertEquals(countries("s0"), countries("s4"));
    assertTrue(countries("s4").contains("XX Country XX"), countries("s4").toString());
    assertTrue(events.contains("ANNOUNCE duplicated tables on s4: 7 rows"), events.toString());
  }

  private List<String> countries(String shard) throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (Connection c = family.connect(shard);
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT CODE, NAME FROM COUNTRIES ORDER BY CODE")) {
      while (rs.next()) {
        rows.add(rs.getString(1) + " " + rs.getString(2));
      }
    }
    return rows;
  }

  private void execute(String shard, String sql) {
    try (Connection c = family.connect(shard); Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
