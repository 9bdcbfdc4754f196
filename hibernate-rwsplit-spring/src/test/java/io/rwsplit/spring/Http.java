package io.rwsplit.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A browser-like HTTP client for one user: follows no redirects by itself (tests follow them, possibly on another
 * instance) and keeps the consistency cookie it was given.
 */
final class Http {

    private final HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String cookieName;
    private String cookie;

    Http(String cookieName) {
        this.cookieName = cookieName;
    }

    String cookie() {
        return cookie;
    }

    void cookie(String value) {
        cookie = value;
    }

    HttpResponse<String> post(int port, String path, String... form) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i + 1 < form.length; i += 2) {
            body.append(body.isEmpty() ? "" : "&").append(form[i]).append('=')
                    .append(URLEncoder.encode(form[i + 1], StandardCharsets.UTF_8));
        }
        return send(request(port, path).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    HttpResponse<String> get(int port, String path, String... headers) {
        HttpRequest.Builder b = request(port, path).GET();
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b);
    }

    private HttpRequest.Builder request(int port, String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30));
        if (cookie != null) {
            b.header("Cookie", cookieName + "=" + cookie);
        }
        return b;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            setCookie(response).ifPresent(c -> cookie = c);
            return response;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The consistency cookie's full Set-Cookie header of a response, if any. */
    Optional<String> setCookieHeader(HttpResponse<String> response) {
        return response.headers().allValues("Set-Cookie").stream().filter(h -> h.startsWith(cookieName + "=")).reduce((a, b) -> b);
    }

    private Optional<String> setCookie(HttpResponse<String> response) {
        return setCookieHeader(response).map(h -> h.substring(cookieName.length() + 1, h.indexOf(';') < 0 ? h.length() : h.indexOf(';')));
    }
}
