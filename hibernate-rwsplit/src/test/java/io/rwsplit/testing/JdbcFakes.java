package io.rwsplit.testing;

import java.lang.reflect.Proxy;

/**
 * Scripted JDBC objects for unit tests: an interface ({@code Connection}, {@code Statement}, {@code ResultSet}, ...)
 * whose every call is answered by one function of the method's name and arguments.
 */
public final class JdbcFakes {

    private JdbcFakes() {
    }

    /** Answers one call: the method's name and its arguments (null when it has none). */
    public interface Answer {
        Object answer(String method, Object[] args) throws Exception;
    }

    /** An object of {@code type} whose calls {@code answer} answers. */
    @SuppressWarnings("unchecked")
    public static <T> T fake(Class<T> type, Answer answer) {
        return (T) Proxy.newProxyInstance(JdbcFakes.class.getClassLoader(), new Class<?>[] {type},
                (p, method, args) -> answer.answer(method.getName(), args));
    }

    /** A result set of one row whose column {@code i} ({@code getString(i)}, from 1) is {@code values[i - 1]}. */
    public static java.sql.ResultSet oneRow(String... values) {
        boolean[] read = {false};
        return fake(java.sql.ResultSet.class, (name, args) -> switch (name) {
            case "next" -> {
                boolean first = !read[0];
                read[0] = true;
                yield first;
            }
            case "getString" -> values[(Integer) args[0] - 1];
            default -> null;
        });
    }
}
