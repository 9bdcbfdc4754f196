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
 * The Redis server of the integration tests: the one on 127.0.0.1:6379 when it answers PING, else a
 * {@code redis-server} started on a free port (stopped when the JVM exits), else a clear failure.
 */
final class RedisServer {

    private static String url;

    private RedisServer() {
    }

    static synchronized String url() {
        if (url == null) {
            url = start();
        }
        return url;
    }

    private static String start() {
        if (answers(6379)) {
            return "redis://127.0.0.1:6379";
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        catch (IOException e) {
            throw new IllegalStateException("no free port for redis-server", e);
        }
        Process process;
        try {
            process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        }
        catch (IOException e) {
            throw new IllegalStateException("no Redis answers on 127.0.0.1:6379 and redis-server could not be started"
                    + " (install redis-server or start one on 6379): " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (answers(port)) {
                return "redis://127.0.0.1:" + port;
            }
            if (!process.isAlive()) {
                break;
            }
            try {
                Thread.sleep(50); // polling an external process that gives no other signal
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        process.destroy();
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within 10 s");
    }

    private static boolean answers(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 300);
            s.setSoTimeout(500);
            OutputStream out = s.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] reply = in.readNBytes(5);
            return "+PONG".equals(new String(reply, StandardCharsets.US_ASCII));
        }
        catch (IOException e) {
            return false;
        }
    }
}
