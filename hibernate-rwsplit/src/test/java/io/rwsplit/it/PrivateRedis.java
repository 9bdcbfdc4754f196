package io.rwsplit.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} on a free port, without persistence, that a test may stop and start again on the same port
 * (never the shared one on 6379); {@link RedisServer} starts one for the whole run when none answers there.
 */
final class PrivateRedis implements AutoCloseable {

    private final int port;
    private Process process;

    private PrivateRedis(int port) {
        this.port = port;
    }

    /** Starts a server on a free port and waits until it answers PING. */
    static PrivateRedis start() {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        catch (IOException e) {
            throw new IllegalStateException("no free port for redis-server", e);
        }
        PrivateRedis redis = new PrivateRedis(port);
        redis.startAgain();
        return redis;
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server (after {@link #stop}) on the same port; it holds no keys. */
    synchronized void startAgain() {
        try {
            process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        }
        catch (IOException e) {
            throw new IllegalStateException("redis-server could not be started (install redis-server): " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && process.isAlive()) {
            if (answers()) {
                return;
            }
            try {
                Thread.sleep(20); // polling an external process that gives no other signal
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within 10 s");
    }

    /** Stops the server and waits until it is gone. */
    synchronized void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private boolean answers() {
        return answers(port);
    }

    /** Whether a Redis server on 127.0.0.1:{@code port} answers PING. */
    static boolean answers(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 300);
            s.setSoTimeout(500);
            OutputStream out = s.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return "+PONG".equals(new String(in.readNBytes(5), StandardCharsets.US_ASCII));
        }
        catch (IOException e) {
            return false;
        }
    }
}
