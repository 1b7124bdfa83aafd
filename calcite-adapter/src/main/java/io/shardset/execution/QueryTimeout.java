package io.shardset.execution;

/**
 * A query's time limit as its statement set it ({@code Statement.setQueryTimeout}, whole
 * seconds), and how much of it was left when a scan of the query started. Errors name the
 * limit that was set, never the time that was left: a client that set 1 s must read 1 s.
 *
 * @param setMillis the limit the statement set, 0 for none
 * @param leftMillis what was left of it when the scan started, at least 1 while limited
 */
public record QueryTimeout(long setMillis, long leftMillis) {
  /** No time limit. */
  public static final QueryTimeout NONE = new QueryTimeout(0, 0);

  public QueryTimeout {
    if (setMillis < 0 || leftMillis < 0 || (setMillis > 0) != (leftMillis > 0)) {
      throw new IllegalArgumentException("a query timeout of " + setMillis + " ms cannot have "
          + leftMillis + " ms left");
    }
  }

  /**
   * Returns the limit of a statement that set {@code setMillis} and has run for
   * {@code elapsedMillis}; a scan that starts once the time is up has 1 ms left, and fails
   * when it sends its first statement.
   */
  public static QueryTimeout of(long setMillis, long elapsedMillis) {
    return setMillis <= 0 ? NONE
        : new QueryTimeout(setMillis, Math.max(1, setMillis - Math.max(0, elapsedMillis)));
  }

  /** Returns whether there is a limit. */
  public boolean limited() {
    return setMillis > 0;
  }

  /** The limit as its errors name it: {@code query timeout of 1 s} (or of 1500 ms). */
  public String describe() {
    return "query timeout of " + (setMillis % 1000 == 0 ? setMillis / 1000 + " s"
        : setMillis + " ms");
  }

  /** The error of a query whose limit elapsed, {@code detail} (or null) saying where. */
  QueryTimeoutException elapsed(String detail) {
    return new QueryTimeoutException(describe() + " elapsed" + detail);
  }
}
