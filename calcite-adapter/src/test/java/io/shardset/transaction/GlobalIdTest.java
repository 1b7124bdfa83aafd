package io.shardset.transaction;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Transaction and branch ids: short, plain, and read back from what shards list. */
class GlobalIdTest {
  @Test void branchIdsAreShortAndReadBack() {
    final GlobalId id = new GlobalId("k3f9az", "0abcdefg", Long.MAX_VALUE);
    final String branch = id.branch(999_999);
    assertEquals("ss_k3f9az_0abcdefg_1y2p0ij32e8e7_999999", branch);
    assertTrue(branch.length() <= 64, branch);
    assertTrue(branch.matches("[a-z0-9_]+"), branch);
    assertEquals(new GlobalId.Branch(id, branch), GlobalId.parseBranch(branch));
    assertTrue(branch.startsWith(GlobalId.prefix("k3f9az")));
  }

  @Test void mariaDbBranchesNameTheirSession() {
    final GlobalId id = new GlobalId("k3f9az", "0abcdefg", 42);
    final String xid = id.branch(1) + CommitProtocol.SESSION + "18446744073709551615";
    assertEquals(new GlobalId.Branch(id, xid), GlobalId.parseBranch(xid));
    assertNull(GlobalId.parseBranch(id.branch(1) + CommitProtocol.SESSION));
    assertNull(GlobalId.parseBranch(id.branch(1) + CommitProtocol.SESSION + "x1"));
  }

  @Test void otherIdsAreNotOurs() {
    assertNull(GlobalId.parseBranch("pgbench_1"));
    assertNull(GlobalId.parseBranch("ss_k3f9az_0abcdefg_12"));
    assertNull(GlobalId.parseBranch("SS_K3F9AZ_0ABCDEFG_1_2"));
  }
}
