package io.rwsplit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Every statement of the sessions used during the call of a method (or of every method of a type) goes to the
 * primary (reason {@code PRIMARY_HINT}), unless a session was given its own intent through
 * {@link RwSplit#onReplica(jakarta.persistence.EntityManager, java.util.function.Supplier)}. On a method it
 * overrides a {@link ReadReplica} of its type and of enclosing calls; the enclosing intent is restored when the
 * call returns or throws.
 * <p>
 * Like {@link ReadReplica}, honoured by what wraps the call: the Spring module's advisor and the CDI module's
 * interceptors, on beans and on repository interfaces.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface UsePrimary {
}
