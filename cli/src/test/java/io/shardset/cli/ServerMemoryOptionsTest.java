package io.shardset.cli;

import io.shardset.cli.server.ResultSpooling;
import io.shardset.cli.server.ServerSettings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The server's options for memory and vanished clients reach its settings: how results are read
 * ahead, the fetch timeout and the sessions' sort memory; a sort memory that is no size stops
 * the server at start, naming it.
 */
class ServerMemoryOptionsTest {
  @TempDir Path folder;

  @Test void optionsReachTheSettings() {
    final ServerCommand command = new ServerCommand();
    new CommandLine(command).parseArgs("--model", folder.resolve("model.json").toString(),
        "--result-memory", "8", "--result-memory-total", "512", "--result-spool-limit", "0",
        "--result-spool-dir", folder.toString(), "--fetch-timeout", "5",
        "--sort-memory", "1GB");
    final ServerSettings settings = command.settings();
    assertEquals(new ResultSpooling(8L << 20, 512L << 20, 0, folder, Duration.ofSeconds(5)),
        settings.spooling());
    assertEquals("1GB", settings.sortMemory());
    final ServerCommand defaults = new ServerCommand();
    new CommandLine(defaults).parseArgs("--model", folder.resolve("model.json").toString());
    assertEquals(ResultSpooling.DEFAULT, defaults.settings().spooling());
    assertNull(defaults.settings().sortMemory());
  }

  @Test void aSortMemoryThatIsNoSizeStopsTheServer() {
    final StringWriter err = new StringWriter();
    final CommandLine cli = ShardSetCli.commandLine();
    cli.setErr(new PrintWriter(err, true));
    assertEquals(1, cli.execute("server", "--model", folder.resolve("model.json").toString(),
        "--port", "0", "--sort-memory", "lots"));
    assertEquals("server failed to start: connection property sortMemory must be a positive"
        + " size such as 256MB, 512KB or 1GB, not 'lots'", err.toString().strip());
  }
}
