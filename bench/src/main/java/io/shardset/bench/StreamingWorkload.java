package io.shardset.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * w5: each system streams every row of ORDERS once, in a child JVM with a small heap
 * ({@link StreamingProbe}), so that the rate and the heap a system needs are measured, and an
 * OutOfMemoryError is a result rather than the end of the benchmark.
 */
public final class StreamingWorkload {
  /** The child JVM's heap. */
  public static final String MAX_HEAP = "-Xmx128m";

  private final String backend;
  private final Path dbFolder;
  private final BenchData data;
  private final Duration timeout;

  /** The probe over the data of {@code backend} ({@code h2} or {@code postgres}). */
  public StreamingWorkload(String backend, Path dbFolder, BenchData data, Duration timeout) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.dbFolder = Objects.requireNonNull(dbFolder, "dbFolder").toAbsolutePath();
    this.data = Objects.requireNonNull(data, "data");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /** Runs the probe for each system; every system's checksum is compared with the first's. */
  public Map<String, Outcome> measure(List<String> systems) throws Exception {
    final Map<String, Outcome> result = new LinkedHashMap<>();
    ProbeResult reference = null;
    String referenceName = null;
    for (String system : systems) {
      final Path log = Files.createTempFile("shardset-probe-", ".log");
      try {
        final String failure = probe(system, log);
        final String output = Files.readString(log);
        final Optional<ProbeResult> probe = ProbeResult.parse(output);
        if (failure != null || probe.isEmpty()) {
          result.put(system, Outcome.note(failure != null ? failure : failureOf(output)));
        } else if (reference != null && (probe.get().rows() != reference.rows()
            || probe.get().checksum() != reference.checksum())) {
          result.put(system, Outcome.note("wrong answer: " + probe.get().rows()
              + " rows, checksum differs from " + referenceName));
        } else {
          if (reference == null) {
            reference = probe.get();
            referenceName = system;
          }
          result.put(system, Outcome.note(probe.get().describe()));
        }
      } finally {
        Files.deleteIfExists(log);
      }
    }
    return result;
  }

  /** Runs one probe with its output in {@code log}; a failure's description, or null. */
  private String probe(String system, Path log) throws Exception {
    final List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add(MAX_HEAP);
    // A thread left running (a connection pool's) must not keep a JVM out of memory alive.
    command.add("-XX:+ExitOnOutOfMemoryError");
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(StreamingProbe.class.getName());
    command.addAll(List.of(backend, dbFolder.toString(), Long.toString(data.orders()), system));
    final Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      return "failed: no answer within " + timeout.toSeconds() + " s";
    }
    return null;
  }

  /** Why a probe printed no result, from its output. */
  static String failureOf(String output) {
    if (output.contains("OutOfMemoryError")) {
      return "failed: OutOfMemoryError (" + MAX_HEAP + ")";
    }
    final String[] lines = output.strip().split("\\R");
    return "failed: " + (lines.length == 0 || lines[0].isEmpty() ? "no output" : lines[0]);
  }
}
