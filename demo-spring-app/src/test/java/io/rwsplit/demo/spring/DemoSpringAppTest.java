package io.rwsplit.demo.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The sample as a user runs it (embedded H2, replicas 500 ms behind through the simulator), driven over HTTP like
 * a browser: every page after a redirect shows the write the POST made.
 */
class DemoSpringAppTest {

    private static final int ROUNDS = 10;

    private static ConfigurableApplicationContext app;
    private static int port;

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private String cookie;

    @BeforeAll
    static void start() {
        app = SpringApplication.run(DemoSpringApp.class, "--server.port=0", "--spring.main.banner-mode=off",
                "--logging.level.io.rwsplit.route=info", "--spring.jmx.enabled=false");
        port = ((WebServerApplicationContext) app).getWebServer().getPort();
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void everyStoryReadsItsWriteAfterTheRedirect() throws Exception {
        int stale = 0;
        for (int i = 0; i < ROUNDS; i++) {
            HttpResponse<String> signedUp = post("/users", "name", "user" + i);
            String page = signedUp.headers().firstValue("Location").orElseThrow();
            stale += get(page).statusCode() == 200 ? 0 : 1;
            String edited = post(page + "/profile", "displayName", "renamed" + i).headers().firstValue("Location").orElseThrow();
            stale += get(edited).body().contains("\"displayName\":\"renamed" + i + "\"") ? 0 : 1;
            String orders = post(page + "/orders", "item", "book" + i).headers().firstValue("Location").orElseThrow();
            stale += get(orders).body().contains("book" + i) ? 0 : 1;
        }
        assertEquals(0, stale, "pages that did not show the write of the POST before them");
        cookie = null; // another visitor, who wrote nothing: their reads go to the replicas
        assertEquals(200, get("/report").statusCode());
        assertEquals(200, get("/users/1").statusCode());
        String stats = get("/stats").body();
        assertTrue(stats.contains("\"replica\":") && !stats.contains("\"replica\":0"), "replicas served reads: " + stats);
    }

    private HttpResponse<String> post(String path, String name, String value) throws IOException, InterruptedException {
        HttpRequest.Builder b = request(path).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)));
        HttpResponse<String> response = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        response.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("RWSPLIT="))
                .forEach(c -> cookie = c.substring(0, c.indexOf(';')));
        assertEquals(303, response.statusCode(), response.body());
        return response;
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        return cookie == null ? b : b.header("Cookie", cookie);
    }
}
