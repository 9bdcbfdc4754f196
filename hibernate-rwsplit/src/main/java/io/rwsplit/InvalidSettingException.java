package io.rwsplit;

/**
 * A setting whose value is refused: the message names the key, the value (secrets masked) and what was expected;
 * {@link #key()} lets a framework point at its own property instead. The module's reader of settings makes them;
 * the message it gives reads {@code hibernate-rwsplit: invalid value '...' for setting '...': expected ...}.
 */
public final class InvalidSettingException extends ConfigurationException {

    private final String key;
    private final transient Object value;
    private final String expected;

    /**
     * @param message  the whole message, with any secret in the value already masked
     * @param expected what the key takes, or {@code null} (an unknown key)
     */
    public InvalidSettingException(String key, Object value, String message, String expected) {
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
