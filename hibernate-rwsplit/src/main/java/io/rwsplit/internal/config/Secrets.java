package io.rwsplit.internal.config;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Hides credentials in everything the module shows: log lines, exception messages, health details. A JDBC or
 * Redis URL keeps its scheme, hosts, database and other options, but the value of every option whose name says
 * it is a secret ({@code password}, {@code passwd}, {@code pwd}, {@code secret}, {@code token},
 * {@code credential}, {@code apikey}, {@code accesskey}, in any case, as part of a longer name such as
 * {@code sslpassword} too) and the password of a {@code //user:password@host} authority read {@value #MASK}.
 * Works on free text the same way (a driver's message that quotes a URL). Runs only where text is shown
 * (startup, errors, state changes), never on the routing path.
 */
public final class Secrets {

    /** What a hidden value reads. */
    public static final String MASK = "****";

    private static final String SECRET_NAME = "password|passwd|pwd|secret|token|credential|apikey|api_key|accesskey|access_key";
    /** {@code name=value} where the name contains a secret word; the value ends at a separator, a quote or a space. */
    private static final Pattern OPTION = Pattern.compile(
            "(?i)([\\w.\\-]*(?:" + SECRET_NAME + ")[\\w.\\-]*\\s*=\\s*)([^&;,)'\"\\s]+)");
    /** The password of an authority: {@code //user:password@} or {@code //:password@}. */
    private static final Pattern USER_INFO = Pattern.compile("(//[^/:@\\s]*:)([^@/\\s]+)@");
    private static final Pattern NAME = Pattern.compile("(?i).*(?:" + SECRET_NAME + ").*");

    private Secrets() {
    }

    /** {@code text} with every secret it carries masked; {@code null} stays {@code null}. */
    public static String scrub(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String s = USER_INFO.matcher(text).replaceAll("$1" + MASK + "@");
        return OPTION.matcher(s).replaceAll("$1" + MASK);
    }

    /** Whether a setting or property of this name holds a secret (its value is then never shown). */
    public static boolean isSecretName(String name) {
        return name != null && NAME.matcher(name.toLowerCase(Locale.ROOT)).matches();
    }

    /** How a setting's value may be shown: masked whole when its name is a secret's, else scrubbed. */
    public static String shown(String name, Object value) {
        if (value == null) {
            return "null";
        }
        return isSecretName(name) ? MASK : scrub(String.valueOf(value));
    }

    /** Properties as they may be shown, sorted by name: secret values masked, the others scrubbed. */
    public static Map<String, String> shown(Properties properties) {
        Map<String, String> shown = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            shown.put(name, shown(name, properties.getProperty(name)));
        }
        return shown;
    }

    /** A throwable as {@code SimpleName: message}, the message scrubbed. */
    public static String describe(Throwable t) {
        if (t == null) {
            return "unknown";
        }
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + scrub(m));
    }
}
