package io.shardset.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class or method of the long tier: it runs under {@code mvn verify -Plong} and
 * not under plain {@code mvn verify}. For tests that take long without covering a feature the
 * fast tier misses (crash and online resharding matrices, TPC-H, the backends beyond the one
 * PostgreSQL pass, small-heap streaming, minute-long load runs). See docs/testing-tiers.md.
 *
 * <p>Inherited, so a backend subclass of a long class is long too.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(LongTest.TAG)
public @interface LongTest {
  /** The JUnit tag, named in the build's {@code groups} and {@code excludedGroups}. */
  String TAG = "long";
}
