package io.rwsplit.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every relative link and anchor in README.md, CONTRIBUTING.md and docs/ resolves. */
class DocumentationLinksTest {

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        Path root = Markdown.root();
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        if (Files.exists(root.resolve("CONTRIBUTING.md"))) {
            pages.add(root.resolve("CONTRIBUTING.md"));
        }
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            Markdown md = Markdown.read(page);
            for (String target : md.links()) {
                if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
                    continue; // http:, https:, mailto:
                }
                checked++;
                String file = target;
                String anchor = null;
                int hash = target.indexOf('#');
                if (hash >= 0) {
                    file = target.substring(0, hash);
                    anchor = target.substring(hash + 1);
                }
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                String where = root.relativize(page) + ": " + target;
                if (!Files.exists(resolved)) {
                    broken.add(where + " (no such file)");
                    continue;
                }
                if (anchor != null && resolved.toString().endsWith(".md")
                        && !Markdown.read(resolved).anchors().contains(anchor)) {
                    broken.add(where + " (no heading with that anchor in " + root.relativize(resolved) + ")");
                }
            }
        }
        assertTrue(checked > 10, "expected the pages to link to each other, found " + checked + " relative links");
        assertEquals(List.of(), broken, "broken links");
    }

    @Test
    void anchorsFollowGitHubRules() {
        assertEquals("lag-probes-hibernaterwsplitlag_probe", Markdown.slug("Lag probes (`hibernate.rwsplit.lag_probe`)"));
        assertEquals("cdi-agroal-and-jta-hibernate-rwsplit-cdi", Markdown.slug("CDI, Agroal and JTA (`hibernate-rwsplit-cdi`)"));
    }

    @Test
    void userDocsNameNoInternalIssueNumbers() throws IOException {
        Path root = Markdown.root();
        List<String> found = new ArrayList<>();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
        }
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).matches("(?i).*\\bissue #?\\d+\\b.*")) {
                    found.add(root.relativize(page) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertEquals(List.of(), found, "user docs must not refer to internal issue numbers");
    }
}
