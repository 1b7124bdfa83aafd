package io.shardset.testing;

/**
 * A SQL function for models that runs out of memory at one value, as a sort or a join above the
 * shards may: {@code F.EXPLODE(x)} returns {@code x}, except at {@link #AT}.
 */
public final class OutOfMemoryFunction {
  /** The value at which the function throws. */
  public static final long AT = 3_000_500;
  /** The message of the error it throws. */
  public static final String MESSAGE = "Java heap space (injected)";

  private OutOfMemoryFunction() {
  }

  /** Returns {@code x}, or throws an {@link OutOfMemoryError} at {@link #AT}. */
  public static long explode(long x) {
    if (x == AT) {
      throw new OutOfMemoryError(MESSAGE);
    }
    return x;
  }

  /** The model entry of a schema {@code F} holding the function as {@code EXPLODE}. */
  public static String schemaJson() {
    return "{\"name\": \"F\", \"functions\": [{\"name\": \"EXPLODE\", \"className\": \""
        + OutOfMemoryFunction.class.getName() + "\", \"methodName\": \"explode\"}]}";
  }
}
