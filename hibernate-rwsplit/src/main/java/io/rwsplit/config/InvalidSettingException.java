package io.rwsplit.config;

/**
 * A setting whose value is refused: the message names the key, the value (secrets masked, see {@link Secrets})
 * and what was expected; {@link #key()}
 * lets a framework point at its own property instead.
 */
public final class InvalidSettingException extends ConfigurationException {

    private final String key;
    private final transient Object value;
    private final String expected;

    public InvalidSettingException(String key, Object value, String expected) {
        this(key, value, "hibernate-rwsplit: invalid value '" + Secrets.shown(key, value) + "' for setting '" + key
                + "': expected " + Secrets.scrub(expected), expected);
    }

    /** A refusal with its own message, such as an unknown key ({@code expected} may be {@code null}). */
    InvalidSettingException(String key, Object value, String message, String expected) {
        super(message);
        this.key = key;
        this.value = value;
        this.expected = expected;
    }

    /** What the key takes, for example {@code a positive duration such as ...}. */
    public String expected() {
        return expected;
    }

    /** The key whose value is refused. */
    public String key() {
        return key;
    }

    /** The refused value. */
    public Object value() {
        return value;
    }
}
