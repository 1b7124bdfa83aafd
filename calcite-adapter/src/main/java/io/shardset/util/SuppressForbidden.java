package io.shardset.util;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Allows, in the annotated method, constructor or class, a use of an API that the build's
 * forbidden-apis check otherwise rejects (config/forbidden-apis/, docs/style.md). Annotate the
 * smallest element that holds the use, and say why it is right there.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.TYPE, ElementType.FIELD})
public @interface SuppressForbidden {
  /** Why the use is right where it is. */
  String reason();
}
