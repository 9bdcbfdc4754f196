package io.rwsplit.internal.consistency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.Tokens;
import io.rwsplit.spi.Clock;
import io.rwsplit.spi.ConsistencyStore;

/**
 * The {@code redis} store, shared by every application instance that uses the same server. A scope is a
 * Redis list of the encoded tokens of its most recent writes (newest first, at most {@value #KEPT}), with a TTL
 * renewed on every write; one atomic script per write, one {@code LRANGE} per read. Keeping several writes
 * instead of one value makes concurrent writers from different instances safe without read-modify-write: the
 * reader merges them.
 * <p>
 * Keys hold no scope name (a scope is often a session id or a user name): the key of store key {@code
 * <label>:<kind>:<id>} is {@code <prefix><label>:<kind>:<hash>}, and of the unit position {@code unit/<unit>/<label>}
 * {@code <prefix><label>:unit:<hash>}, where the hash is the first 22 characters of the base64url SHA-256 of the
 * whole store key (the same in every instance) and {@code <kind>} the scope's prefix such as {@code session} or
 * {@code principal} ({@code scope} when it has none). Messages name the kind and a short hash only.
 * <p>
 * No caller ever waits for a connection: one daemon thread of the store connects, and connects again every
 * {@value #RECONNECT_MILLIS} ms after the connection is lost; meanwhile every command fails at once (the caller
 * treats the scope as unknown, {@link ConsistencyRuntime} keeps the writes). After a reconnect, reads fail for
 * {@link #SETTLE} more, so that the writes other instances kept while Redis was away are written before this one
 * trusts what it reads. Commands time out after {@code timeout}.
 * <p>
 * Loaded only when selected, so Lettuce stays an optional dependency.
 */
public final class RedisConsistencyStore implements ConsistencyStore, AutoCloseable {

    static final int KEPT = 8;
    static final long RECONNECT_MILLIS = 250;
    /**
     * How long reads wait after a reconnect: longer than another instance takes to reconnect
     * ({@value #RECONNECT_MILLIS} ms) and write what it kept ({@link ConsistencyRuntime#FLUSH_INTERVAL}).
     */
    static final Duration SETTLE = Duration.ofSeconds(1);
    private static final int HASH_CHARS = 22;

    private static final String RECORD = "redis.call('LPUSH', KEYS[1], ARGV[1]);"
            + "redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[3]) - 1);"
            + "redis.call('PEXPIRE', KEYS[1], ARGV[2]);"
            + "return 1";

    /** A live connection, and when its reads may be trusted. */
    private record Connected(StatefulRedisConnection<String, String> connection, RedisCommands<String, String> redis,
                             long readableAtNanos) {
    }

    private final RedisClient client;
    private final String prefix;
    private final long ttlMillis;
    private final Clock clock;
    private final Thread connector;
    private volatile Connected connected;
    private volatile boolean closed;
    private volatile String recordSha;

    /**
     * Connects once (at most {@code timeout}); if that fails, the store's thread keeps trying.
     *
     * @param prefix of every key, e.g. {@code rwsplit:}
     * @param clock  the clock of {@link #SETTLE}
     */
    public RedisConsistencyStore(String url, String prefix, Duration ttl, Duration timeout, Clock clock) {
        RedisURI uri = RedisURI.create(url);
        uri.setTimeout(timeout);
        this.client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(false) // the store's thread reconnects, on a schedule every instance shares
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
                .build());
        this.prefix = prefix;
        this.ttlMillis = Math.max(1, ttl.toMillis());
        this.clock = clock;
        connect(0);
        this.connector = new Thread(this::keepConnected, "rwsplit-redis-connect");
        connector.setDaemon(true);
        client.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
                LockSupport.unpark(connector);
            }
        });
        connector.start();
    }

    /** Connects unless connected; reads of a new connection are trusted {@code settleNanos} later. */
    private void connect(long settleNanos) {
        Connected c = connected;
        if (c != null && c.connection.isOpen()) {
            return;
        }
        if (c != null) {
            connected = null;
            c.connection.closeAsync();
        }
        try {
            StatefulRedisConnection<String, String> connection = client.connect();
            connected = new Connected(connection, connection.sync(), clock.nanoTime() + settleNanos);
            ConsistencyRuntime.log.debug("hibernate-rwsplit: connected to Redis");
        }
        catch (RuntimeException e) {
            ConsistencyRuntime.log.debug("hibernate-rwsplit: connecting to Redis failed: {}", e.toString());
        }
    }

    private void keepConnected() {
        while (!closed) {
            connect(SETTLE.toNanos());
            LockSupport.parkNanos(this, RECONNECT_MILLIS * 1_000_000L);
        }
    }

    private Connected connection() {
        Connected c = connected;
        if (c == null || !c.connection.isOpen()) {
            throw new IllegalStateException("not connected to Redis (reconnecting in the background)");
        }
        return c;
    }

    @Override
    public ConsistencyToken read(String scope) {
        Connected c = connection();
        long early = c.readableAtNanos - clock.nanoTime();
        if (early > 0) {
            throw new StoreSettlingException("Redis answers again: its reads are trusted in " + (early / 1_000_000)
                    + " ms, once other instances wrote what they kept meanwhile");
        }
        List<String> encoded = c.redis.lrange(key(scope), 0, KEPT - 1);
        ConsistencyToken merged = null;
        for (String token : encoded) {
            try {
                merged = Tokens.merge(merged, ConsistencyToken.decode(token));
            }
            catch (IllegalArgumentException e) {
                throw new IllegalStateException("a Redis entry of a '" + kind(scope) + "' scope (hash "
                        + hash(scope).substring(0, 8) + "...) holds a value that is not a consistency token: "
                        + e.getMessage(), e);
            }
        }
        return merged;
    }

    @Override
    public void record(String scope, ConsistencyToken write) {
        RedisCommands<String, String> redis = connection().redis;
        String[] keys = {key(scope)};
        String token = write.encode();
        String sha = recordSha;
        if (sha == null) {
            recordSha = sha = redis.scriptLoad(RECORD);
        }
        try {
            redis.evalsha(sha, ScriptOutputType.INTEGER, keys, token, Long.toString(ttlMillis), Integer.toString(KEPT));
        }
        catch (RedisNoScriptException e) {
            // the server restarted and lost its scripts
            redis.eval(RECORD, ScriptOutputType.INTEGER, keys, token, Long.toString(ttlMillis), Integer.toString(KEPT));
            recordSha = null;
        }
    }

    /** The Redis key of store key {@code scope}: see the class comment. */
    String key(String scope) {
        String label;
        String kind;
        if (scope.startsWith("unit/")) {
            label = scope.substring(scope.lastIndexOf('/') + 1);
            kind = "unit";
        }
        else {
            int colon = scope.indexOf(':');
            label = colon < 0 ? null : scope.substring(0, colon);
            kind = kind(scope);
        }
        return prefix + (label == null ? "" : label + ":") + kind + ":" + hash(scope);
    }

    /** The scope's kind: the word before its first ':' after the label ({@code session}, {@code principal}), else scope. */
    static String kind(String scope) {
        if (scope.startsWith("unit/")) {
            return "unit";
        }
        int from = scope.indexOf(':') + 1;
        int to = scope.indexOf(':', from);
        if (from == 0 || to < 0 || to - from > 16 || to == from) {
            return "scope";
        }
        for (int i = from; i < to; i++) {
            char ch = scope.charAt(i);
            if (!(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '-')) {
                return "scope";
            }
        }
        return scope.substring(from, to);
    }

    /** The first {@value #HASH_CHARS} characters of the base64url SHA-256 of {@code scope}: the same in every JVM. */
    static String hash(String scope) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(scope.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, HASH_CHARS);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(connector);
        try {
            connector.join(2_000);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Connected c = connected;
            if (c != null) {
                c.connection.close();
            }
        }
        finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
