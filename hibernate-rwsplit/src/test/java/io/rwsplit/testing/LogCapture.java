package io.rwsplit.testing;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.read.ListAppender;

/**
 * Collects every event of a logger and the loggers below it (logback, the test binding) from {@link #attach} until
 * {@link #close()}, at the level the test asks for, without showing more on the console than the configuration
 * does: events below the level the logger had reach the capture only; the others go on to the root logger's
 * appenders as before. {@link #close()} restores the logger.
 */
public final class LogCapture implements AutoCloseable {

    private final Logger logger;
    private final Level configured;
    private final boolean additive;
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final AppenderBase<ILoggingEvent> shown;

    private LogCapture(Logger logger, Level level) {
        this.logger = logger;
        this.configured = logger.getLevel();
        this.additive = logger.isAdditive();
        Level shownFrom = logger.getEffectiveLevel();
        Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        this.shown = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                if (event.getLevel().isGreaterOrEqual(shownFrom)) {
                    root.callAppenders(event);
                }
            }
        };
        events.start();
        shown.start();
        logger.addAppender(events);
        if (additive) {
            logger.addAppender(shown);
            logger.setAdditive(false);
        }
        logger.setLevel(level);
    }

    /** Starts collecting what {@code loggerName} (not the root logger) and the loggers below it log at {@code level}. */
    public static LogCapture attach(String loggerName, Level level) {
        if (Logger.ROOT_LOGGER_NAME.equalsIgnoreCase(loggerName)) {
            throw new IllegalArgumentException("capture a named logger, not the root logger");
        }
        return new LogCapture((Logger) LoggerFactory.getLogger(loggerName), level);
    }

    /**
     * Every event so far, one line each: level, logger, formatted message, then class and message of every
     * throwable it carries (causes and suppressed ones, depth first).
     */
    public List<String> lines() {
        List<ILoggingEvent> copy;
        synchronized (events) { // AppenderBase appends under the appender's lock
            copy = List.copyOf(events.list);
        }
        List<String> lines = new ArrayList<>(copy.size());
        for (ILoggingEvent e : copy) {
            StringBuilder line = new StringBuilder().append(e.getLevel()).append(' ').append(e.getLoggerName())
                    .append(' ').append(e.getFormattedMessage());
            appendThrowable(line, e.getThrowableProxy(), 0);
            lines.add(line.toString());
        }
        return lines;
    }

    private static void appendThrowable(StringBuilder line, IThrowableProxy t, int depth) {
        if (t == null || depth > 20) {
            return;
        }
        line.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
        for (IThrowableProxy suppressed : t.getSuppressed()) {
            appendThrowable(line, suppressed, depth + 1);
        }
        appendThrowable(line, t.getCause(), depth + 1);
    }

    /** Stops collecting and gives the logger back its level, appenders and additivity. */
    @Override
    public void close() {
        logger.setLevel(configured);
        logger.detachAppender(shown);
        logger.setAdditive(additive);
        logger.detachAppender(events);
        events.stop();
        shown.stop();
    }
}
