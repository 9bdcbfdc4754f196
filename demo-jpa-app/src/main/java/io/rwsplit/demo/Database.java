package io.rwsplit.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** One server of the demo (primary or replica), reached with plain JDBC for set-up and lag probing. */
record Database(String name, String url, String user, String password) {

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** Runs the statements of a classpath script, separated by {@code ;}; lines starting with {@code --} are comments. */
    void runScript(String resource) {
        String script = readResource(resource);
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String statement : script.replaceAll("(?m)^--.*$", "").split(";")) {
                if (!statement.isBlank()) {
                    s.execute(statement.strip());
                }
            }
        }
        catch (SQLException e) {
            throw new IllegalStateException(name + ": cannot run " + resource + ": " + e.getMessage(), e);
        }
    }

    private static String readResource(String resource) {
        try (InputStream in = Database.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
