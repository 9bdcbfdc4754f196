package io.rwsplit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that the reads of a method (or of every method of a type) may be served by a replica.
 * <p>
 * The core library does not scan for this annotation: it is honoured by whatever wraps the method
 * call, like {@link RwSplit#onReplica(jakarta.persistence.EntityManager, java.util.function.Supplier)} does
 * for one session; the Spring module's advisor and the CDI module's interceptors apply it to every session used
 * during the call (through {@link io.rwsplit.spi.RoutingIntentSource}), as they apply {@link UsePrimary} and
 * {@link ReadConsistency}. The core rules still win: writes, locks, flushes and read-write transactions stay on
 * the primary.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ReadReplica {

    /**
     * The consistency level of these reads, as text ({@code eventual}, {@code read_your_writes},
     * {@code bounded_staleness:PT0.5S}, {@code strong}; see {@link Consistency#parse}); empty (the default)
     * keeps the session's level. The same as {@link ReadConsistency} on the same method or type.
     */
    String consistency() default "";
}
