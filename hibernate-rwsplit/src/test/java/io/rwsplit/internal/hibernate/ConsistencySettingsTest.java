package io.rwsplit.internal.hibernate;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rwsplit.RwSplitSettings;

/** Bad consistency settings fail startup with the key and the value. */
class ConsistencySettingsTest {

    private final H2Pair h2 = new H2Pair();

    @AfterEach
    void close() {
        h2.close();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            RwSplitSettings.CONSISTENCY + "|linearizable",
            RwSplitSettings.CONSISTENCY + "|bounded_staleness:PT-1S",
            RwSplitSettings.READ_YOUR_WRITES + "|sometimes",
            RwSplitSettings.READ_YOUR_WRITES_WINDOW + "|-PT1S",
            RwSplitSettings.CAUSAL_WAIT_TIMEOUT + "|-5ms",
            RwSplitSettings.CONSISTENCY_STORE_TTL + "|0",
            RwSplitSettings.CONSISTENCY_STORE_MAX_SCOPES + "|0",
            RwSplitSettings.CONSISTENCY_STORE + "|com.example.NoSuchStore",
            RwSplitSettings.SCOPE_RESOLVER + "|com.example.NoSuchResolver",
    })
    void badValuesFailStartupNamingKeyAndValue(String key, String value) {
        Map<String, Object> settings = h2.settings();
        settings.put(key, value);
        Throwable e = assertThrows(Exception.class, () -> h2.factory(settings).close());
        String messages = messages(e);
        assertTrue(messages.contains(key) && messages.contains(value), messages);
    }

    @org.junit.jupiter.api.Test
    void theRedisStoreNeedsAUrl() {
        Map<String, Object> settings = h2.settings();
        settings.put(RwSplitSettings.CONSISTENCY_STORE, "redis");
        Throwable e = assertThrows(Exception.class, () -> h2.factory(settings).close());
        assertTrue(messages(e).contains(RwSplitSettings.REDIS_URL), messages(e));
    }

    static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" / ");
        }
        return sb.toString();
    }
}
