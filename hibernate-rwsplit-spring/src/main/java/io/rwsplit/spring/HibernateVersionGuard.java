package io.rwsplit.spring;

/**
 * Refuses to start on a Hibernate ORM older than the core needs (7.2, the first release with the read-only
 * connection SPI; Spring Boot 4.0 manages 7.2, 4.1 manages 7.4), with a message naming both versions, instead of
 * failing later with a linkage error or routing wrongly.
 */
final class HibernateVersionGuard {

    static final int MAJOR = 7;
    static final int MINOR = 2;

    private HibernateVersionGuard() {
    }

    /** @throws UnsupportedHibernateVersionException when {@code version} is older than 7.2 or unreadable */
    static void check(String version) {
        if (!supported(version)) {
            throw new UnsupportedHibernateVersionException(version);
        }
    }

    static boolean supported(String version) {
        if (version == null) {
            return false;
        }
        String[] parts = version.split("[.-]");
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major > MAJOR || major == MAJOR && minor >= MINOR;
        }
        catch (NumberFormatException e) {
            return false;
        }
    }

    /** Hibernate ORM is too old for hibernate-rwsplit. */
    static final class UnsupportedHibernateVersionException extends IllegalStateException {

        private final String version;

        UnsupportedHibernateVersionException(String version) {
            super("hibernate-rwsplit needs Hibernate ORM " + MAJOR + "." + MINOR + " or later, but the application has "
                    + version);
            this.version = version;
        }

        String version() {
            return version;
        }
    }
}
