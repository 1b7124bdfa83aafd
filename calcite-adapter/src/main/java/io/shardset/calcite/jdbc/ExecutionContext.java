package io.shardset.calcite.jdbc;

import io.shardset.calcite.runtime.TimestampParameter;
import io.shardset.util.SuppressForbidden;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.rel.type.TimeFrames;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.util.Holder;
import org.apache.calcite.util.Util;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The context of one execution of a statement: its parameters and Calcite's variables (the
 * current time, time zone, locale, user, standard streams), as Calcite's own context gives
 * them. Calcite's builds an immutable map of all of them for every execution, which took
 * about 7 % of a routed point query's client CPU; this one reads the clock once, when the
 * execution starts, as the SQL standard asks, and works out each variable from that instant
 * only when a statement asks for it.
 */
public final class ExecutionContext implements DataContext {
  private static final Map<String, Variable> VARIABLES = Arrays.stream(Variable.values())
      .collect(Collectors.toUnmodifiableMap(v -> v.camelName, Function.identity()));

  private final Map<String, ? extends @Nullable Object> parameters;
  private final @Nullable SchemaPlus rootSchema;
  private final JavaTypeFactory typeFactory;
  private final QueryProvider queryProvider;
  private final Supplier<TimeZone> timeZones;
  private final @Nullable String localeName;
  /** Calcite's own context, for what only it gives (the SQL advisor). */
  private final Supplier<DataContext> calcite;
  /** Milliseconds since the epoch at which the execution started. */
  private final long time;
  private volatile @Nullable TimeZone timeZone;
  private volatile @Nullable Object @Nullable [] streams;

  /**
   * Creates the context of an execution starting now.
   *
   * @param parameters the statement's parameter values ({@code ?0}, ...) and internal
   *     parameters, as Calcite hands them to its own context; a {@link TimestampParameter}
   *     is given as its milliseconds, and its exact value by its
   *     {@link TimestampParameter#exactName}
   * @param timeZones the connection's time zone, asked once if a statement needs it
   * @param localeName the connection's {@code locale} property, or null for the root locale
   * @param calcite makes Calcite's own context, for a variable this one does not know
   */
  public ExecutionContext(Map<String, ? extends @Nullable Object> parameters,
      @Nullable SchemaPlus rootSchema, JavaTypeFactory typeFactory, QueryProvider queryProvider,
      Supplier<TimeZone> timeZones, @Nullable String localeName,
      Supplier<DataContext> calcite) {
    this.parameters = parameters;
    this.rootSchema = rootSchema;
    this.typeFactory = typeFactory;
    this.queryProvider = queryProvider;
    this.timeZones = timeZones;
    this.localeName = localeName;
    this.calcite = calcite;
    final Holder<Long> timeHolder = Holder.of(System.currentTimeMillis());
    // As Calcite's context: a hook may set the clock (tests do).
    Hook.CURRENT_TIME.run(timeHolder);
    this.time = timeHolder.get();
  }

  @Override public @Nullable SchemaPlus getRootSchema() {
    return rootSchema;
  }

  @Override public JavaTypeFactory getTypeFactory() {
    return typeFactory;
  }

  @Override public QueryProvider getQueryProvider() {
    return queryProvider;
  }

  @Override public @Nullable Object get(String name) {
    final Object parameter = parameters.get(name);
    if (parameter instanceof TimestampParameter timestamp) {
      return timestamp.millis(); // as Calcite's code holds a TIMESTAMP
    }
    if (parameter != null || parameters.containsKey(name)) {
      return parameter;
    }
    final Variable variable = VARIABLES.get(name);
    if (variable == null) {
      final String exactOf = TimestampParameter.parameterName(name);
      return exactOf != null && parameters.get(exactOf) instanceof TimestampParameter exact
          ? exact.exact() : null;
    }
    switch (variable) {
    case UTC_TIMESTAMP:
      return time;
    case CURRENT_TIMESTAMP:
    case LOCAL_TIMESTAMP:
      return time + timeZone().getOffset(time);
    case SYS_TIMESTAMP:
      return time + TimeZone.getDefault().getOffset(time);
    case TIME_ZONE:
      return timeZone();
    case TIME_FRAME_SET:
      return typeFactory.getTypeSystem().deriveTimeFrameSet(TimeFrames.CORE);
    case USER:
      return "sa";
    case SYSTEM_USER:
      return System.getProperty("user.name");
    case LOCALE:
      return localeName == null ? Locale.ROOT : Util.parseLocale(localeName);
    case STDIN:
      return streams()[0];
    case STDOUT:
      return streams()[1];
    case STDERR:
      return streams()[2];
    default:
      // The SQL advisor, and variables only the caller puts in (cancel flag, timeout): the
      // latter are among the parameters when set.
      return calcite.get().get(name);
    }
  }

  /** The connection's time zone, the same object throughout the execution. */
  private TimeZone timeZone() {
    TimeZone zone = timeZone;
    if (zone == null) {
      zone = timeZones.get();
      timeZone = zone;
    }
    return zone;
  }

  @SuppressForbidden(reason = "the standard streams Calcite's context hands to statements")
  private @Nullable Object[] streams() {
    @Nullable Object[] known = streams;
    if (known == null) {
      // As Calcite's context: a hook may replace the streams.
      final Holder<@Nullable Object[]> holder =
          Holder.of(new Object[] {System.in, System.out, System.err});
      Hook.STANDARD_STREAMS.run(holder);
      known = holder.get();
      streams = known;
    }
    return known;
  }
}
