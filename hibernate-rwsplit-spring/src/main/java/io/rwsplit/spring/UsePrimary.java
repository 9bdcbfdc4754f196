package io.rwsplit.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Every statement of the sessions used during the call goes to the primary (reason {@code PRIMARY_HINT}),
 * unless a session was given its own intent through {@code RwSplit.onReplica}. Works on Spring beans and on
 * the methods of Spring Data repository interfaces. On a method it overrides a {@link io.rwsplit.ReadReplica}
 * of its type and of enclosing calls; the enclosing intent is restored when the call returns or throws.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface UsePrimary {
}
