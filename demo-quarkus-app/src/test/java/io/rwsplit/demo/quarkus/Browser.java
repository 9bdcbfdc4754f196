package io.rwsplit.demo.quarkus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * An HTTP client that keeps cookies as a browser does (one cookie jar for every port of 127.0.0.1) and does not
 * follow redirects, so that the test chooses the instance the redirected GET goes to.
 */
final class Browser {

    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient http = HttpClient.newBuilder().cookieHandler(cookies)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();

    HttpResponse<String> get(int port, String path) {
        return send(request(port, path).GET().build());
    }

    HttpResponse<String> post(int port, String path) {
        return send(request(port, path).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    HttpResponse<String> postForm(int port, String path, String field, String value) {
        String form = URLEncoder.encode(field, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
        return send(request(port, path).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build());
    }

    /** The value of the cookie {@code name} this browser holds. */
    Optional<String> cookie(String name) {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(name))
                .map(HttpCookie::getValue).findFirst();
    }

    /** Drops every cookie, as a browser whose user cleared them. */
    void clearCookies() {
        cookies.getCookieStore().removeAll();
    }

    /** The path of a redirect's {@code Location} (Quarkus REST makes it absolute, on the instance that answered). */
    static String redirectPath(HttpResponse<String> response) {
        String location = response.headers().firstValue("Location")
                .orElseThrow(() -> new AssertionError("no redirect: " + response + " " + response.body()));
        return URI.create(location).getPath();
    }

    private static HttpRequest.Builder request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30));
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + request.method() + " " + request.uri(), e);
        }
    }
}
