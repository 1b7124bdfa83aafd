package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The secrets of one shard's connection settings (its password, and any password written into
 * its JDBC URL), and the masking that keeps them out of messages, logs and exception chains.
 *
 * <p>Queries mask through their shard's endpoint; the loader and the resharding tool, which
 * open plain connections and print errors themselves, mask through
 * {@link #of(Collection, Collection)}.
 */
public final class Secrets {
  static final String MASK = "****";

  /** {@code password=...} or {@code pwd=...} parameters of H2 ({@code ;}) and URL ({@code &})
   * styles, and the {@code //user:password@host} form. */
  private static final List<Pattern> URL_SECRETS = List.of(
      Pattern.compile("(?i)(?:password|pwd)=([^;&?#]*)"),
      Pattern.compile("//[^:/@;?]*:([^@/;?]*)@"));

  /** The longest secret first, so that a secret containing another is masked whole. */
  private final List<String> secrets;

  private Secrets(List<String> secrets) {
    List<String> sorted = new ArrayList<>(secrets);
    sorted.removeIf(String::isEmpty);
    sorted.sort(Comparator.comparingInt(String::length).reversed());
    this.secrets = List.copyOf(sorted);
  }

  /** Returns the secrets of a shard: the password and the passwords inside the URL. */
  static Secrets of(ShardConnectionSettings settings) {
    List<String> secrets = new ArrayList<>(urlSecrets(settings.jdbcUrl()));
    if (settings.password() != null) {
      secrets.add(settings.password());
    }
    return new Secrets(secrets);
  }

  /**
   * Returns the secrets of several shards, so that a message that may come from any of them
   * can be masked.
   *
   * @param jdbcUrls the shards' JDBC URLs, whose passwords are secrets
   * @param passwords the shards' passwords (nulls are skipped)
   */
  public static Secrets of(Collection<String> jdbcUrls, Collection<@Nullable String> passwords) {
    List<String> secrets = new ArrayList<>();
    jdbcUrls.forEach(url -> secrets.addAll(urlSecrets(url)));
    passwords.stream().filter(Objects::nonNull).forEach(secrets::add);
    return new Secrets(secrets);
  }

  /** Returns the JDBC URL with the passwords it contains masked. */
  static String maskUrl(String jdbcUrl) {
    return new Secrets(urlSecrets(jdbcUrl)).redact(jdbcUrl);
  }

  private static List<String> urlSecrets(String jdbcUrl) {
    List<String> secrets = new ArrayList<>();
    for (Pattern pattern : URL_SECRETS) {
      Matcher matcher = pattern.matcher(jdbcUrl);
      while (matcher.find()) {
        secrets.add(matcher.group(1));
      }
    }
    return secrets;
  }

  /** Returns the text with every secret replaced by {@link #MASK}. */
  public String redact(@Nullable String text) {
    if (text == null) {
      return "null";
    }
    String result = text;
    for (String secret : secrets) {
      result = result.replace(secret, MASK);
    }
    return result;
  }

  /**
   * Returns the throwable itself if no message in its cause chain changes under {@code redact},
   * otherwise a copy of the chain with redacted messages and the original stack traces.
   *
   * <p>A copy keeps SQLState and vendor code of SQL exceptions but not their classes: leaking a
   * password through a logged cause is worse than losing the exact exception type.
   */
  public static Throwable redactChain(Throwable throwable, UnaryOperator<String> redact) {
    return leaks(throwable, redact) ? copy(throwable, redact) : throwable;
  }

  private static boolean leaks(Throwable throwable, UnaryOperator<String> redact) {
    for (Throwable t : chain(throwable)) {
      String message = t.getMessage();
      if (message != null && !message.equals(redact.apply(message))) {
        return true;
      }
    }
    return false;
  }

  private static Throwable copy(Throwable throwable, UnaryOperator<String> redact) {
    List<Throwable> chain = chain(throwable);
    Throwable copy = null;
    for (int i = chain.size() - 1; i >= 0; i--) {
      Throwable original = chain.get(i);
      String message = original.getMessage() == null ? null : redact.apply(original.getMessage());
      Throwable next;
      if (original instanceof SQLException e) {
        next = new SQLException(message, e.getSQLState(), e.getErrorCode(), copy);
      } else {
        next = new Exception(original.getClass().getName() + ": " + message, copy);
      }
      next.setStackTrace(original.getStackTrace());
      copy = next;
    }
    return copy;
  }

  /** The throwable and its causes, stopping at a cycle or after a sane depth. */
  private static List<Throwable> chain(Throwable throwable) {
    List<Throwable> chain = new ArrayList<>();
    for (Throwable t = throwable; t != null && chain.size() < 32 && !chain.contains(t);
        t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }
}
