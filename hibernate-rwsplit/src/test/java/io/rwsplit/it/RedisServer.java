package io.rwsplit.it;

/**
 * The Redis server of the integration tests: the one on 127.0.0.1:6379 when it answers PING, else a
 * {@link PrivateRedis} started on a free port (stopped when the JVM exits), else a clear failure.
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
        if (PrivateRedis.answers(6379)) {
            return "redis://127.0.0.1:6379";
        }
        PrivateRedis redis;
        try {
            redis = PrivateRedis.start();
        }
        catch (IllegalStateException e) {
            throw new IllegalStateException("no Redis answers on 127.0.0.1:6379 and " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                redis.close();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        return redis.url();
    }
}
