package io.rwsplit.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The Spring section of docs/configuration.md cannot drift from the module's configuration metadata: every
 * {@code spring.rwsplit.*} property is documented, every documented one exists, and a documented default equals
 * the metadata's default.
 */
class SpringPropertiesReferenceTest {

    private static final Pattern PROPERTY = Pattern.compile(
            "\\{\\s*\"name\"\\s*:\\s*\"(spring\\.rwsplit\\.[^\"]+)\"(.*?)\\}", Pattern.DOTALL);
    private static final Pattern DEFAULT = Pattern.compile("\"defaultValue\"\\s*:\\s*\"?([^\",}\\]]*)\"?");
    private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern ROW = Pattern.compile("^\\|\\s*`(spring\\.rwsplit\\.[^`]+)`\\s*\\|([^|]*)\\|", Pattern.MULTILINE);

    @Test
    void everyPropertyIsDocumentedWithItsDefault() throws IOException {
        Map<String, String> metadata = metadata();
        Map<String, String> documented = documented();
        assertTrue(metadata.size() > 20, "metadata: " + metadata.keySet());

        List<String> missing = new ArrayList<>(metadata.keySet());
        missing.removeAll(documented.keySet());
        assertEquals(List.of(), missing, "spring.rwsplit properties missing from docs/configuration.md");

        List<String> unknown = new ArrayList<>(documented.keySet());
        unknown.removeAll(metadata.keySet());
        assertEquals(List.of(), unknown, "docs/configuration.md names spring.rwsplit properties that do not exist");

        List<String> wrong = new ArrayList<>();
        metadata.forEach((name, value) -> {
            String doc = documented.get(name);
            if (!value.isEmpty() && !value.equalsIgnoreCase(doc)) {
                wrong.add(name + ": metadata " + value + ", documented " + doc);
            }
            else if (value.isEmpty() && !doc.isEmpty()) {
                wrong.add(name + ": no default in the metadata, documented " + doc);
            }
        });
        assertEquals(List.of(), wrong, "documented defaults that differ from the metadata's");
    }

    /** The {@code spring.rwsplit.*} properties of the generated metadata: name to default ("" for none). */
    static Map<String, String> metadata() throws IOException {
        return metadata(DEFAULT);
    }

    /** The {@code spring.rwsplit.*} properties of the generated metadata: name to type. */
    static Map<String, String> metadataTypes() throws IOException {
        return metadata(TYPE);
    }

    private static Map<String, String> metadata(Pattern field) throws IOException {
        String json;
        try (InputStream in = SpringPropertiesReferenceTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertNotNull(in, "META-INF/spring-configuration-metadata.json is not generated");
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, String> properties = new LinkedHashMap<>();
        Matcher m = PROPERTY.matcher(json.substring(json.indexOf("\"properties\"")));
        while (m.find()) {
            Matcher d = field.matcher(m.group(2));
            properties.put(m.group(1), d.find() ? d.group(1).trim().replace("\\/", "/") : "");
        }
        return properties;
    }

    private static Map<String, String> documented() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docs/configuration.md"))) {
            dir = dir.getParent();
        }
        assertNotNull(dir, "docs/configuration.md not found");
        Map<String, String> rows = new LinkedHashMap<>();
        Matcher m = ROW.matcher(Files.readString(dir.resolve("docs/configuration.md")));
        while (m.find()) {
            rows.put(m.group(1), m.group(2).trim().replace("`", ""));
        }
        return rows;
    }
}
