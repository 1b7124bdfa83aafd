package io.shardset.testing;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The stacks of the threads running ShardSet's code, on one line: what a test that waited in
 * vain reports, so that a hang seen once on a loaded machine names where each thread stood.
 */
public final class ThreadStacks {
  private static final int FRAMES = 8;

  private ThreadStacks() {
  }

  /** Each thread that has a ShardSet frame: its name, state and top frames, {@code <-} apart. */
  public static String ofShardSet() {
    return Thread.getAllStackTraces().entrySet().stream()
        .filter(e -> Arrays.stream(e.getValue())
            .anyMatch(frame -> frame.getClassName().startsWith("io.shardset.")))
        .filter(e -> e.getKey() != Thread.currentThread())
        .map(ThreadStacks::describe)
        .collect(Collectors.joining(" | "));
  }

  private static String describe(Map.Entry<Thread, StackTraceElement[]> entry) {
    return entry.getKey().getName() + " (" + entry.getKey().getState() + "): "
        + Arrays.stream(entry.getValue()).limit(FRAMES)
            .map(frame -> frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1)
                + "." + frame.getMethodName() + ":" + frame.getLineNumber())
            .collect(Collectors.joining(" <- "));
  }
}
