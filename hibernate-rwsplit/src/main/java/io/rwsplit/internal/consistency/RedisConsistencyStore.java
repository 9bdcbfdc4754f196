package io.rwsplit.internal.consistency;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.rwsplit.position.ConsistencyToken;
import io.rwsplit.position.Tokens;
import io.rwsplit.spi.ConsistencyStore;

/**
 * The {@code redis} store, shared by every application instance that uses the same server. A scope is a
 * Redis list {@code rwsplit:<label>:<scope>} of the encoded tokens of its most recent writes (newest first,
 * at most {@value #KEPT}), with a TTL renewed on every write; one atomic script per write, one
 * {@code LRANGE} per read. Keeping several writes instead of one value makes concurrent writers from
 * different instances safe without read-modify-write: the reader merges them.
 * <p>
 * Loaded only when selected, so Lettuce stays an optional dependency. Commands time out after
 * {@code timeout}; the caller then treats the scope as unknown.
 */
public final class RedisConsistencyStore implements ConsistencyStore, AutoCloseable {

    static final int KEPT = 8;

    private static final String RECORD = "redis.call('LPUSH', KEYS[1], ARGV[1]);"
            + "redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[3]) - 1);"
            + "redis.call('PEXPIRE', KEYS[1], ARGV[2]);"
            + "return 1";

    private final RedisClient client;
    private volatile StatefulRedisConnection<String, String> connection;
    private final String prefix;
    private final long ttlMillis;
    private volatile String recordSha;

    public RedisConsistencyStore(String url, String prefix, Duration ttl, Duration timeout) {
        RedisURI uri = RedisURI.create(url);
        uri.setTimeout(timeout);
        this.client = RedisClient.create(uri);
        client.setOptions(io.lettuce.core.ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(io.lettuce.core.ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(io.lettuce.core.TimeoutOptions.enabled(timeout))
                .socketOptions(io.lettuce.core.SocketOptions.builder().connectTimeout(timeout).build())
                .build());
        this.prefix = prefix;
        this.ttlMillis = Math.max(1, ttl.toMillis());
        try {
            commands();
        }
        catch (RuntimeException e) {
            // unreachable at startup: the first command connects; until then reads of named scopes use the primary
        }
    }

    private RedisCommands<String, String> commands() {
        StatefulRedisConnection<String, String> c = connection;
        if (c == null) {
            synchronized (this) {
                if (connection == null) {
                    connection = client.connect();
                }
                c = connection;
            }
        }
        return c.sync();
    }

    @Override
    public ConsistencyToken read(String scope) {
        List<String> encoded = commands().lrange(prefix + scope, 0, KEPT - 1);
        ConsistencyToken merged = null;
        for (String token : encoded) {
            try {
                merged = Tokens.merge(merged, ConsistencyToken.decode(token));
            }
            catch (IllegalArgumentException e) {
                throw new IllegalStateException("Redis key '" + prefix + scope + "' holds a value that is not a"
                        + " consistency token: " + e.getMessage(), e);
            }
        }
        return merged;
    }

    @Override
    public void record(String scope, ConsistencyToken write) {
        RedisCommands<String, String> redis = commands();
        String[] keys = {prefix + scope};
        String token = write.encode();
        String sha = recordSha;
        if (sha == null) {
            recordSha = sha = redis.scriptLoad(RECORD);
        }
        try {
            redis.evalsha(sha, ScriptOutputType.INTEGER, keys, token, Long.toString(ttlMillis), Integer.toString(KEPT));
        }
        catch (io.lettuce.core.RedisNoScriptException e) {
            // the server restarted and lost its scripts
            redis.eval(RECORD, ScriptOutputType.INTEGER, keys, token, Long.toString(ttlMillis), Integer.toString(KEPT));
            recordSha = null;
        }
    }

    @Override
    public void close() {
        try {
            StatefulRedisConnection<String, String> c = connection;
            if (c != null) {
                c.close();
            }
        }
        finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
