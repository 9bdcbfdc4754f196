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
 * call and calls {@link RwSplit#onReplica(jakarta.persistence.EntityManager, java.util.function.Supplier)}
 * around it, which is what the {@code hibernate-rwsplit-cdi} interceptor does. The core rules still
 * win: writes, locks, flushes and read-write transactions stay on the primary.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ReadReplica {
}
