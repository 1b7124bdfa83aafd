package io.shardset.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One run of the {@code shardset} command line in the test's JVM: its exit code and what it
 * wrote on standard output and standard error, line ends as {@code \n}.
 */
record CliRun(int code, String out, String err) {
  static CliRun of(String... args) {
    final StringWriter o = new StringWriter();
    final StringWriter e = new StringWriter();
    final CommandLine cli = ShardSetCli.commandLine();
    cli.setOut(new PrintWriter(o, true));
    cli.setErr(new PrintWriter(e, true));
    final int code = cli.execute(args);
    return new CliRun(code, o.toString().replace(System.lineSeparator(), "\n"),
        e.toString().replace(System.lineSeparator(), "\n"));
  }
}
