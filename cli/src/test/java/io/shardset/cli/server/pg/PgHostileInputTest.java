package io.shardset.cli.server.pg;

import io.shardset.cli.server.ResultSpooling;
import io.shardset.testing.Backend;
import io.shardset.testing.CountingShards;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import static io.shardset.testing.PostgresItems.awaitValue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a client may send the PostgreSQL port that no client should: a malformed, truncated or
 * oversized message, a startup without a user, an unknown protocol, garbage, a client that
 * stops reading mid-result, and 64 clients that connect and drop. Each gets an error or a
 * closed connection; the server goes on serving, and no statement stays open on a shard.
 */
class PgHostileInputTest {
  private static PgServerFixture server;

  @BeforeAll static void start() throws Exception {
    // A client that reads nothing for 2 s is cut off.
    server = PgServerFixture.start(Backend.H2, 3, PgJdbcTest.TABLES,
        settings -> settings.withSpooling(ResultSpooling.DEFAULT.streamed()
            .withFetchTimeout(Duration.ofSeconds(2))), PgJdbcTest.DDL);
    try (Connection c = server.embedded()) {
      PgJdbcTest.load(c, 120);
    }
  }

  @AfterAll static void stop() throws SQLException {
    server.close();
  }

  /** After each case: nothing runs on a shard, no connection stays, a new client is
   * served. */
  @AfterEach void stillServing() throws SQLException {
    final CountingShards shards = server.shards().shards();
    awaitValue(0, shards::openStatements);
    awaitValue(0, server.server()::pgConnections);
    try (Connection c = DriverManager.getConnection(server.url(""))) {
      assertEquals(List.of("120"), ShardFixture.rows(c, "SELECT COUNT(*) FROM ITEMS"));
    }
  }

  private static PgWire started() throws IOException {
    final PgWire wire = new PgWire(server.port()).startup("user", "tester");
    final List<PgWire.Message> welcome = wire.readUntilReady();
    assertEquals('Z', welcome.get(welcome.size() - 1).type(), welcome.toString());
    return wire;
  }

  private static void assertFatal(PgWire wire, String sqlState, String message)
      throws IOException {
    final PgWire.Message error = wire.read();
    assertEquals('E', error.type());
    assertEquals("FATAL", error.field('S'));
    assertEquals(sqlState, error.field('C'));
    assertEquals(message, error.field('M'));
    assertTrue(wire.closedByServer());
  }

  @Test void anOversizedLengthEndsTheConnectionBeforeAnythingIsRead() throws Exception {
    try (PgWire wire = started()) {
      wire.raw(new byte[] {'Q', 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
      assertFatal(wire, "08P01", "invalid message length 2147483647 (at most 67108864 bytes)");
    }
  }

  @Test void aLengthShorterThanItselfEndsTheConnection() throws Exception {
    try (PgWire wire = started()) {
      wire.raw(new byte[] {'Q', 0, 0, 0, 2});
      assertFatal(wire, "08P01", "invalid message length 2");
    }
  }

  @Test void anUnknownMessageTypeEndsTheConnection() throws Exception {
    try (PgWire wire = started()) {
      wire.send('!', new byte[0]);
      assertFatal(wire, "08P01", "invalid frontend message type 33");
    }
  }

  @Test void aMalformedBindIsAnErrorAndTheSessionGoesOn() throws Exception {
    try (PgWire wire = started()) {
      // Bind of portal "" to statement "": no such statement, and a body cut short.
      wire.send('B', new byte[] {0, 0, 0, 1}).send('S', new byte[0]);
      final List<PgWire.Message> reply = wire.readUntilReady();
      assertEquals('E', reply.get(0).type());
      assertEquals("26000", reply.get(0).field('C'));
      assertEquals('Z', reply.get(1).type());
      wire.query("SELECT COUNT(*) FROM items");
      final List<PgWire.Message> rows = wire.readUntilReady();
      assertEquals(List.of('T', 'D', 'C', 'Z'),
          rows.stream().map(PgWire.Message::type).toList());
    }
  }

  @Test void aTruncatedMessageLeavesNothingOpen() throws Exception {
    try (PgWire wire = started()) {
      wire.raw(new byte[] {'Q', 0, 0, 0, 100, 'S', 'E', 'L'});
      wire.closeOutput();
      assertTrue(wire.closedByServer());
    }
  }

  @Test void aStartupWithoutAUserIsRefused() throws Exception {
    try (PgWire wire = new PgWire(server.port()).startup("database", "shardset")) {
      assertFatal(wire, "28000", "no PostgreSQL user name specified in startup packet");
    }
  }

  @Test void anUnknownProtocolVersionIsRefused() throws Exception {
    try (PgWire wire = new PgWire(server.port())) {
      wire.raw(ByteBuffer.allocate(8).putInt(8).putInt(2 << 16).array());
      assertFatal(wire, "0A000", "unsupported frontend protocol 2.0: server supports 3.0");
    }
  }

  @Test void garbageEndsTheConnection() throws Exception {
    final Random random = new Random(42);
    for (int i = 0; i < 20; i++) {
      final byte[] garbage = new byte[64];
      random.nextBytes(garbage);
      try (PgWire wire = new PgWire(server.port())) {
        wire.raw(garbage);
        wire.closeOutput();
        PgWire.Message message;
        while ((message = wire.read()) != null) {
          assertTrue(message.type() == 'E' || message.type() == 'N'
              || message.type() == 'R', message.toString());
        }
      }
    }
  }

  @Test void aClientThatStopsReadingIsCutOffAndItsShardStatementsEnd() throws Exception {
    try (PgWire wire = started()) {
      // A result far larger than the socket's buffers, never read.
      wire.query("SELECT * FROM items a, items b, items c");
      // The write timeout (2 s) passes, and the server closes the connection.
      awaitValue(0, server.server()::pgConnections);
    }
  }

  @Test void sixtyFourClientsThatConnectAndDropLeaveNothingOpen() throws Exception {
    for (int i = 0; i < 64; i++) {
      final PgWire wire = new PgWire(server.port());
      switch (i % 4) {
      case 0:
        wire.close();
        break;
      case 1:
        wire.startup("user", "tester");
        wire.close();
        break;
      case 2:
        started().query("SELECT * FROM items").close();
        wire.close();
        break;
      default:
        started().query("SELECT * FROM items a, items b").close();
        wire.close();
        break;
      }
    }
  }
}
