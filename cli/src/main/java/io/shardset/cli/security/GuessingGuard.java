package io.shardset.cli.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows down password guessing. After {@link Policy#freeFailures} failed authentications in a
 * row from one address, every later attempt from it waits before its password is checked,
 * twice as long after each further failure up to {@link Policy#maxDelay}; a success from the
 * address ends its wait. Failures for one user (from any address) delay the answers to that
 * user's wrong passwords the same way, while a right password is answered at once: guessing
 * from many addresses is slowed, and nobody can lock a user out by guessing. Failures are
 * forgotten an hour after the last one.
 */
public final class GuessingGuard {
  /** How long failures are remembered after the last one. */
  static final Duration MEMORY = Duration.ofHours(1);
  /** The most addresses and users remembered; the oldest are forgotten beyond. */
  static final int REMEMBERED = 100_000;

  /**
   * When guessing is slowed.
   *
   * @param freeFailures the failures in a row that cost nothing
   * @param firstDelay the wait after the first failure beyond those
   * @param maxDelay the longest wait
   */
  public record Policy(int freeFailures, Duration firstDelay, Duration maxDelay) {
    /** Five free failures, then 250 ms doubling up to 30 s. */
    public static final Policy DEFAULT = new Policy(5, Duration.ofMillis(250),
        Duration.ofSeconds(30));

    /** The wait after {@code failures} failures in a row. */
    public Duration delay(int failures) {
      final int beyond = failures - freeFailures;
      if (beyond <= 0) {
        return Duration.ZERO;
      }
      final long millis = firstDelay.toMillis() << Math.min(beyond - 1, 30);
      return millis <= 0 || millis > maxDelay.toMillis() ? maxDelay : Duration.ofMillis(millis);
    }
  }

  /** Waits; tests give one that records instead. */
  @FunctionalInterface
  public interface Sleeper {
    /** Waits for {@code duration}. */
    void sleep(Duration duration) throws InterruptedException;
  }

  private final Policy policy;
  private final Sleeper sleeper;
  private final Clock clock;
  private final Map<String, Failures> byAddress = new ConcurrentHashMap<>();
  private final Map<String, Failures> byUser = new ConcurrentHashMap<>();

  public GuessingGuard(Policy policy, Sleeper sleeper, Clock clock) {
    this.policy = policy;
    this.sleeper = sleeper;
    this.clock = clock;
  }

  /** Failures in a row, and when the last one was. */
  private record Failures(int count, Instant last) {
  }

  /** Waits as long as the address's failures ask, before its password is checked. */
  public Duration awaitTurn(String address) throws InterruptedException {
    final Duration delay = policy.delay(count(byAddress, address));
    if (!delay.isZero()) {
      sleeper.sleep(delay);
    }
    return delay;
  }

  /**
   * Records a failed authentication and waits as long as the user's failures ask before it is
   * answered.
   *
   * @return the wait of the address's next attempt
   */
  public Duration failed(String address, String user) throws InterruptedException {
    final int forUser = add(byUser, user);
    final int fromAddress = add(byAddress, address);
    final Duration answer = policy.delay(forUser);
    if (!answer.isZero()) {
      sleeper.sleep(answer);
    }
    return policy.delay(fromAddress);
  }

  /** Records a success: the address's and the user's failures end. */
  public void succeeded(String address, String user) {
    byAddress.remove(address);
    byUser.remove(user);
  }

  /** The failures in a row of an address, for the log. */
  public int failuresFrom(String address) {
    return count(byAddress, address);
  }

  /** The failures in a row for a user, for the log. */
  public int failuresFor(String user) {
    return count(byUser, user);
  }

  private int count(Map<String, Failures> map, String key) {
    final Failures failures = map.get(key);
    if (failures == null) {
      return 0;
    }
    if (failures.last().plus(MEMORY).isBefore(clock.instant())) {
      map.remove(key, failures);
      return 0;
    }
    return failures.count();
  }

  private int add(Map<String, Failures> map, String key) {
    if (map.size() >= REMEMBERED) {
      forgetOld(map);
    }
    final Instant now = clock.instant();
    return map.merge(key, new Failures(1, now), (old, one) ->
        old.last().plus(MEMORY).isBefore(now) ? one : new Failures(old.count() + 1, now))
        .count();
  }

  private void forgetOld(Map<String, Failures> map) {
    final Instant cutoff = clock.instant().minus(MEMORY);
    map.values().removeIf(failures -> failures.last().isBefore(cutoff));
    if (map.size() >= REMEMBERED) {
      // A flood of addresses: forget them all rather than grow.
      map.clear();
    }
  }
}
