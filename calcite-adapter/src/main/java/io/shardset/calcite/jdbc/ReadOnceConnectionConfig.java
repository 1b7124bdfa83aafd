package io.shardset.calcite.jdbc;

import org.apache.calcite.config.CalciteConnectionConfigImpl;

import java.util.Properties;

/**
 * A connection's configuration whose settings that every execution reads are parsed once:
 * Calcite's configuration parses the connection's properties again on each call of a getter
 * (a few microseconds per execution of a point query, for the locale, {@code autoTemp} and
 * {@code spark} that building each execution's context and result set asks for). The
 * connection's properties are fixed once it is open, so a value read once stays right.
 */
public final class ReadOnceConnectionConfig extends CalciteConnectionConfigImpl {
  private final boolean autoTemp;
  private final boolean spark;
  private final String locale;
  private final String timeZone;

  /** The configuration of {@code properties}, which no one changes afterwards. */
  public ReadOnceConnectionConfig(Properties properties) {
    super(properties);
    this.autoTemp = super.autoTemp();
    this.spark = super.spark();
    this.locale = super.locale();
    this.timeZone = super.timeZone();
  }

  @Override public boolean autoTemp() {
    return autoTemp;
  }

  @Override public boolean spark() {
    return spark;
  }

  @Override public String locale() {
    return locale;
  }

  @Override public String timeZone() {
    return timeZone;
  }
}
