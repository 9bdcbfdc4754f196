package io.rwsplit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;

import io.rwsplit.testing.LogCapture;
import io.rwsplit.testing.TestCluster;

/**
 * Whether log lines give a cluster's password away. The database and the user are named like the password
 * ({@code rwsplit}), so only the forms that carry a password count: an option or property
 * ({@code password=rwsplit}, {@code "password": "rwsplit"}, {@code pwd=...}) and a URL's user info
 * ({@code //user:rwsplit@host}); a masked {@code password=****} does not.
 */
final class LoggedPasswords {

    private LoggedPasswords() {
    }

    /** The password-bearing forms of {@code password}. */
    static Pattern forms(String password) {
        String p = Pattern.quote(password);
        return Pattern.compile("(?i)(?:pass(?:word|wd)?|pwd|secret)[^\\w*]{0,3}" + p + "(?!\\w)|:" + p + "@");
    }

    /**
     * Fails if a line shows the cluster's password. Fails too if no line names replica1's address (without a logged
     * replica URL the check proves nothing) or if the check would miss the password of a replica URL logged verbatim.
     */
    static void assertNoneLogged(LogCapture logs, TestCluster cluster) {
        Pattern forms = forms(cluster.password());
        assertTrue(forms.matcher(cluster.jdbcUrlWithCredentials(TestCluster.replica(1))).find(),
                "the check finds the password in a replica URL logged verbatim");
        List<String> lines = logs.lines();
        String address = "127.0.0.1:" + cluster.port(TestCluster.replica(1));
        assertTrue(lines.stream().anyMatch(line -> line.contains(address)),
                () -> "some line names replica1 (" + address + "), in " + lines.size() + " lines:\n"
                        + String.join("\n", lines));
        assertEquals(List.of(), lines.stream().filter(line -> forms.matcher(line).find()).toList(),
                "log lines that give the password away");
    }
}
