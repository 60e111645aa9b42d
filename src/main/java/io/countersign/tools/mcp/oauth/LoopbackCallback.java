package io.countersign.tools.mcp.oauth;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.nimbusds.oauth2.sdk.util.URLUtils;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The redirect target of one sign-in (RFC 8252 section 7.3): {@code http://127.0.0.1:<port>/callback} on a port the
 * system picks, bound to the loopback address only, open until the authorization server's redirect came or the
 * sign-in was given up.
 */
final class LoopbackCallback implements AutoCloseable {
    private final HttpServer server;
    private final CompletableFuture<URI> answer = new CompletableFuture<>();

    private LoopbackCallback(HttpServer server) {
        this.server = server;
    }

    static LoopbackCallback start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            LoopbackCallback callback = new LoopbackCallback(server);
            server.createContext("/callback", callback::handle);
            server.start();
            return callback;
        } catch (IOException e) {
            throw new OAuthException("no loopback port could be opened for the sign-in's redirect: " + e.getMessage());
        }
    }

    URI redirectUri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/callback");
    }

    /** The redirect as it came back: {@link #redirectUri()} with the authorization server's parameters. */
    URI await(Duration timeout) {
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new OAuthException("the sign-in was not completed within " + timeout.toMinutes() + " minutes");
        } catch (ExecutionException e) {
            throw new OAuthException("the sign-in's redirect could not be read");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OAuthException("the sign-in was interrupted");
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        URI received = URI.create(redirectUri() + (exchange.getRequestURI().getRawQuery() == null ? ""
                : "?" + exchange.getRequestURI().getRawQuery()));
        boolean signedIn = URLUtils.parseParameters(received.getRawQuery()).containsKey("code");
        byte[] page = ("<!doctype html><meta charset=utf-8><title>Countersign</title><p>"
                + (signedIn ? "Signed in. You can close this window and return to Countersign."
                : "The sign-in did not complete. Return to Countersign for the reason.") + "</p>")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        exchange.sendResponseHeaders(200, page.length);
        try (OutputStream body = exchange.getResponseBody()) {
            body.write(page);
        }
        answer.complete(received);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
