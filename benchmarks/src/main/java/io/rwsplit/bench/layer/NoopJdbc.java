package io.rwsplit.bench.layer;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

import javax.sql.DataSource;

/**
 * A JDBC driver that does nothing: its connections ({@link NoopConnection}, a plain class, so that a call the routing
 * layer adds costs what it costs of a real driver) prepare statements, dynamic proxies, whose queries return one row
 * ({@code 7}, {@code "x"}). What a routing layer over it costs is then its own cost, not a database's: both sides of
 * a comparison make the same statement calls (and pay the same proxy dispatch for them), so that the difference is
 * the layer's. Not thread-safe beyond what one benchmark thread needs.
 */
final class NoopJdbc {

    private NoopJdbc() {
    }

    /** A data source whose every connection is a new no-op connection (a pool in front keeps them). */
    static DataSource dataSource() {
        return proxy(DataSource.class, (self, method, args) -> switch (method.getName()) {
            case "getConnection" -> new NoopConnection();
            case "getLoginTimeout" -> 0;
            default -> object(self, method, args);
        });
    }

    private enum Kind { STATEMENT, RESULTS }

    /** A new no-op prepared statement. */
    static PreparedStatement preparedStatement() {
        return proxy(PreparedStatement.class, new Handler(Kind.STATEMENT));
    }

    /** A new no-op statement. */
    static Statement statement() {
        return proxy(Statement.class, new Handler(Kind.STATEMENT));
    }

    /** One statement's or result set's answers. */
    private static final class Handler implements InvocationHandler {
        private final Kind kind;
        private int rowsRead;

        Handler(Kind kind) {
            this.kind = kind;
        }

        @Override
        public Object invoke(Object self, Method method, Object[] args) {
            String name = method.getName();
            switch (name) {
                case "executeQuery" -> {
                    return proxy(ResultSet.class, new Handler(Kind.RESULTS));
                }
                case "next" -> {
                    return rowsRead++ == 0;
                }
                case "getLong" -> {
                    return 7L;
                }
                case "getString" -> {
                    return "x";
                }
                default -> {
                    return object(self, method, args);
                }
            }
        }

        @Override
        public String toString() {
            return "no-op " + kind;
        }
    }

    /** The answers every proxy gives: identity, and the zero value of the method's return type. */
    private static Object object(Object self, Method method, Object[] args) {
        switch (method.getName()) {
            case "hashCode" -> {
                return System.identityHashCode(self);
            }
            case "equals" -> {
                return self == args[0];
            }
            case "toString" -> {
                return "no-op JDBC";
            }
            default -> {
                Class<?> type = method.getReturnType();
                if (type == boolean.class) {
                    return false;
                }
                if (type == int.class) {
                    return 0;
                }
                if (type == long.class) {
                    return 0L;
                }
                return null;
            }
        }
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(NoopJdbc.class.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
