package io.rwsplit.cdi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;

/**
 * The consistency level of the replica reads made during the call, by name ({@code EVENTUAL},
 * {@code READ_YOUR_WRITES}, {@code BOUNDED_STALENESS}, {@code STRONG}); the routing intent is not
 * changed. Inner declarations override outer ones and are restored on exit.
 * <p>
 * The level is published to the core through {@link io.rwsplit.spi.RoutingIntentSource#currentConsistency()};
 * the consistency rules of the core honour it once they exist (issue 4).
 */
@Documented
@Inherited
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Consistency {

    /** The level name. */
    @Nonbinding
    String value();
}
