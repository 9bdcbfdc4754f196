package io.rwsplit.demo.quarkus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One process of the packaged notes application ({@code java -jar target/quarkus-app/quarkus-run.jar}), started on a
 * free port with {@code -D} overrides (and the secrets in its environment, so they show in no command line), its
 * output in {@code target/notes-app-logs/<name>.log}. {@link #close()} ends it, and a shutdown hook ends it if the
 * test JVM exits first, so that no run leaves one behind.
 */
final class NotesApp implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final String name;
    private final int port;
    private final Process process;
    private final Path log;
    private final Thread reaper;

    private NotesApp(String name, int port, Process process, Path log) {
        this.name = name;
        this.port = port;
        this.process = process;
        this.log = log;
        this.reaper = new Thread(process::destroyForcibly, "stop notes app " + name);
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    /**
     * Starts the application with {@code properties} as {@code -D} options and {@code environment} added to its
     * environment, and returns once {@code /q/health/ready} answers 200.
     */
    static NotesApp start(String name, Map<String, String> properties, Map<String, String> environment) {
        int port = freePort();
        Path jar = Path.of(System.getProperty("notes.app.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build the application first (mvn package)");
        }
        Path logs = Path.of(System.getProperty("notes.app.logs", "target/notes-app-logs"));
        Path log = logs.resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-Dquarkus.http.port=" + port);
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-jar");
        command.add(jar.toString());
        Process process;
        try {
            Files.createDirectories(logs);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the notes application " + name, e);
        }
        NotesApp app = new NotesApp(name, port, process, log);
        try {
            app.awaitReady();
        } catch (RuntimeException | Error e) {
            app.close();
            throw e;
        }
        return app;
    }

    int port() {
        return port;
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                .timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the notes application " + name + " exited with " + process.exitValue()
                        + " before it was ready; its output:\n" + tail());
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // polled again below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the notes application " + name, e);
            }
            try {
                process.waitFor(200, TimeUnit.MILLISECONDS); // a pause between polls that ends if the process dies
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the notes application " + name, e);
            }
        }
        throw new IllegalStateException("the notes application " + name + " was not ready within " + READY_TIMEOUT
                + "; its output:\n" + tail());
    }

    /** Ends the process (SIGTERM: Quarkus shuts down cleanly), forcibly if it is still there after a while. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
    }

    /** The last lines of the application's output. */
    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    @Override
    public String toString() {
        return "notes app " + name + " on port " + port;
    }
}
