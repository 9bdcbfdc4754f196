package io.rwsplit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The consistency level of the reads made during the call of a method (or of every method of a type), by every
 * session used meanwhile, in place of the session's own level: {@code eventual}, {@code read_your_writes},
 * {@code bounded_staleness:PT0.5S} (or {@code bounded_staleness:500ms}) or {@code strong}, the text
 * {@link Consistency#parse} accepts. The routing intent is not changed. Inner declarations override outer ones
 * and are restored on exit, also on exceptions. An invalid level fails at startup, naming the method.
 * <p>
 * {@code @ReadReplica(consistency = "...")} is the short form for a replica read with a level. Honoured by the
 * Spring module's advisor and the CDI module's interceptors.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ReadConsistency {

    /** The level, e.g. {@code "bounded_staleness:1s"}. */
    String value();
}
