package io.shardset.transaction;

import io.shardset.testing.Backend;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A MariaDB branch's XID names the session that ran it, and another session counts it as held
 * until that session has ended: only then may it be finished without being lost.
 */
class MariaDbSessionTest {
  private static final CommitProtocol XA = CommitProtocol.MARIADB;

  @Test void aPreparedBranchIsHeldUntilItsSessionEnds() throws SQLException {
    try (TxShards shards = TxShards.create(Backend.MARIADB, 1);
         Connection recovering = shards.connect(0)) {
      final String branch = new GlobalId("sessiontest", "dead", 1).branch(0);
      final Connection running = shards.connect(0);
      running.setAutoCommit(false);
      final String xid = XA.enlist(running, branch);
      assertTrue(xid.startsWith(branch + CommitProtocol.SESSION), xid);
      try {
        prepareAndFinish(shards, running, recovering, xid);
      } finally {
        // Not left prepared for the database's drop, whatever failed.
        running.close();
        for (int pass = 0; pass < 10_000 && XA.isHeld(recovering, xid); pass++) {
          Thread.onSpinWait();
        }
        if (XA.prepared(recovering).contains(xid)) {
          XA.rollbackPrepared(recovering, xid);
        }
      }
    }
  }

  private static void prepareAndFinish(TxShards shards, Connection running,
      Connection recovering, String xid) throws SQLException {
    try (Statement s = running.createStatement()) {
      s.executeUpdate("insert into t values (1)");
    }
    XA.prepare(running, xid, "s0");
    assertTrue(XA.prepared(recovering).contains(xid), XA.prepared(recovering).toString());
    assertTrue(XA.isHeld(recovering, xid));
    final SQLException held = assertThrows(SQLException.class,
        () -> XA.commitPrepared(recovering, xid));
    assertTrue(XA.isUnknownBranch(held), held.toString());

    running.close();
    // The server ends the session once it has read the quit; recovery passes look again.
    for (int pass = 0; pass < 10_000 && XA.isHeld(recovering, xid); pass++) {
      Thread.onSpinWait();
    }
    assertFalse(XA.isHeld(recovering, xid));
    XA.commitPrepared(recovering, xid);
    assertEquals(List.of(List.of(1)), shards.idsEverywhere());
    assertFalse(XA.prepared(recovering).contains(xid));
  }
}
