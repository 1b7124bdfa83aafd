package io.shardset.cli.server.pg;

/**
 * The format codes a Bind message gives its parameters or its result columns: none (all in
 * text), one (all in that format), or one per value.
 */
final class PgFormats {
  /** Every value in text. */
  static final PgFormats TEXT = new PgFormats(new short[0]);

  private final short[] codes;

  PgFormats(short[] codes) {
    for (short code : codes) {
      if (code != 0 && code != 1) {
        throw new PgProtocolException("unknown format code " + code);
      }
    }
    this.codes = codes.clone();
  }

  static PgFormats read(PgInput input) {
    final short[] codes = new short[input.readCount()];
    for (int i = 0; i < codes.length; i++) {
      codes[i] = input.readShort();
    }
    return new PgFormats(codes);
  }

  /** Whether the value at {@code index} (from 0) is in binary. */
  boolean binary(int index) {
    if (codes.length == 0) {
      return false;
    }
    return (codes.length == 1 ? codes[0] : codes[index]) == 1;
  }

  /** Checks that the codes fit {@code count} values. */
  PgFormats checkFits(int count, String what) {
    if (codes.length > 1 && codes.length != count) {
      throw new PgProtocolException("bind message has " + codes.length + " " + what
          + " formats but " + count + " " + what + "s");
    }
    return this;
  }
}
