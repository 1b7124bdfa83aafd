package io.shardset.cli;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code shardset --version} names ShardSet's version and the Calcite and Avatica it brings. */
class VersionTest {
  @Test void versionNamesCalciteAndAvatica() {
    final StringWriter out = new StringWriter();
    final CommandLine cli = ShardSetCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    assertEquals(0, cli.execute("--version"));
    final String line = out.toString().trim();
    assertTrue(line.matches("ShardSet [0-9]+\\.[0-9]+\\.[0-9]+(-SNAPSHOT)? \\(Calcite 1\\.42\\.0,"
        + " Avatica 1\\.28\\.0, Java 17[^)]*\\)"), line);
  }
}
