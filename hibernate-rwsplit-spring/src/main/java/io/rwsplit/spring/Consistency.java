package io.rwsplit.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The consistency level of the reads made during the call, by every session used meanwhile, in place of
 * the session's own level: {@code eventual}, {@code read_your_writes}, {@code bounded_staleness:PT0.5S}
 * or {@code strong} (the text {@link io.rwsplit.Consistency#parse} accepts). The routing intent is not
 * changed. Inner declarations override outer ones and are restored on exit, also on exceptions. An invalid
 * level fails at startup, naming the method.
 * <p>
 * {@code @ReadReplica(consistency = "...")} is the short form for a replica read with a level.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Consistency {

    /** The level, e.g. {@code "bounded_staleness:PT1S"}. */
    String value();
}
