package io.countersign.tools.gateway;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code countersign gateway --listen 127.0.0.1:0} as a child process, the URL it printed on standard error, and the
 * bearer token it made beside its store, as a person copies both into a host's server configuration. Closing it
 * sends SIGTERM, as a person stopping the gateway does.
 */
final class HttpGatewayProcess implements AutoCloseable {
    private static final Pattern SERVING = Pattern.compile("over (http://\\S+/mcp) as ");

    private final Process process;
    private final URI url;
    private final String token;

    private HttpGatewayProcess(Process process, URI url, String token) {
        this.process = process;
        this.url = url;
        this.token = token;
    }

    /** Starts the command line (the java executable first) and waits until it says where it serves. */
    static HttpGatewayProcess start(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        CompletableFuture<URI> served = new CompletableFuture<>();
        Thread errors = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                    System.err.println("gateway: " + line);
                    Matcher serving = SERVING.matcher(line);
                    if (serving.find()) {
                        served.complete(URI.create(serving.group(1)));
                    }
                }
            } catch (IOException e) {
                served.completeExceptionally(e);
            }
            served.completeExceptionally(new AssertionError("the gateway ended without serving: " + lines));
        }, "gateway-stderr");
        errors.setDaemon(true);
        errors.start();
        URI url = served.get(60, TimeUnit.SECONDS);
        Path store = Path.of(command.get(command.indexOf("--store") + 1));
        return new HttpGatewayProcess(process, url, GatewayToken.in(store.toAbsolutePath().getParent()).value());
    }

    /** The MCP endpoint, as the gateway printed it. */
    URI url() {
        return url;
    }

    /** The value of the {@code Authorization} header a host sends: {@code Bearer TOKEN}. */
    String authorization() {
        return "Bearer " + token;
    }

    /** The official SDK's transport to the gateway, the token among its headers as a host's configuration has it. */
    HttpClientStreamableHttpTransport transport() {
        return HttpClientStreamableHttpTransport.builder("http://" + url.getAuthority()).endpoint(url.getPath())
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", authorization())).build();
    }

    Process process() {
        return process;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
