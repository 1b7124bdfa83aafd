package io.shardset.calcite;

import org.junit.jupiter.api.AfterAll;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The foundation's result-equality query set, sent through a ShardSet server and Avatica's
 * remote driver, against the same unsharded database.
 */
class RemoteResultEqualityTest extends ResultEqualityTest {
  private RemoteTestSupport remote;

  @Override Connection open(String model) throws SQLException {
    remote = RemoteTestSupport.serve(model);
    return remote.connect();
  }

  @Override boolean bindsBigInteger() {
    return false;
  }

  @AfterAll void stopServer() throws SQLException, IOException {
    connection.close();
    remote.close();
  }
}
