package io.rwsplit.spring;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

import io.rwsplit.RwSplitSettings;

/**
 * Turns hibernate-rwsplit's startup failures into a short report: a Hibernate ORM that is too old, and an invalid
 * setting that reached Hibernate (from {@code spring.jpa.properties.hibernate.rwsplit.*} or a {@code spring.rwsplit}
 * property the binder could not check), naming the property to fix. Invalid {@code spring.rwsplit} values are
 * reported by Spring Boot's own binding analyzers with the property's name.
 */
public final class RwSplitFailureAnalyzer implements FailureAnalyzer {

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HibernateVersionGuard.UnsupportedHibernateVersionException e) {
                return new FailureAnalysis(e.getMessage() + ".",
                        "Use Spring Boot 4.0 or later (it manages Hibernate ORM " + HibernateVersionGuard.MAJOR + "."
                                + HibernateVersionGuard.MINOR + " or later), or set the Maven property 'hibernate.version'"
                                + " (Gradle: ext['hibernate.version']) to a " + HibernateVersionGuard.MAJOR + "."
                                + HibernateVersionGuard.MINOR + ".x or later release.", e);
            }
            String message = t.getMessage();
            if (message != null && message.startsWith("hibernate-rwsplit:")) {
                String key = refusedKey(t);
                if (key == null) {
                    key = settingIn(message);
                }
                String action = key == null ? "Fix the hibernate-rwsplit configuration."
                        : "Fix the property " + HibernateSettings.propertyOf(key)
                                + (HibernateSettings.propertyOf(key).startsWith("spring.jpa.") ? "" : " (or spring.jpa.properties." + key + ")") + ".";
                return new FailureAnalysis(message, action, t);
            }
        }
        return null;
    }

    /** The key of the refused setting in {@code t} or its causes (Hibernate's exception wraps ours), or {@code null}. */
    private static String refusedKey(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof io.rwsplit.InvalidSettingException invalid) {
                return invalid.key();
            }
        }
        return null;
    }

    /** The first {@code hibernate.rwsplit.*} key quoted in the message, or {@code null}. */
    static String settingIn(String message) {
        int start = message.indexOf("'" + RwSplitSettings.PREFIX);
        if (start < 0) {
            return null;
        }
        int end = message.indexOf('\'', start + 1);
        return end < 0 ? null : message.substring(start + 1, end);
    }
}
