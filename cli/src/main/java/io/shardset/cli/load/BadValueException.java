package io.shardset.cli.load;

/** A field or row of a CSV file that cannot become a row of the table; the message says why. */
public final class BadValueException extends Exception {
  public BadValueException(String reason) {
    super(reason);
  }
}
