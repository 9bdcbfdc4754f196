package io.rwsplit;

/**
 * A configuration that cannot work, refused at startup: the message starts with {@code hibernate-rwsplit:} and
 * names the setting and the value (secrets masked). The Hibernate glue hands it to Hibernate as a
 * {@code ConnectionProviderConfigurationException} with this exception as its cause; a setting whose value is refused
 * is an {@link InvalidSettingException}.
 */
public class ConfigurationException extends IllegalArgumentException {

    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
