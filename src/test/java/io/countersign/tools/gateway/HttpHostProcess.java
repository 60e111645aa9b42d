package io.countersign.tools.gateway;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An MCP host in a process of its own, for a test to kill: the official SDK's streamable HTTP client connects to
 * the gateway at {@code args[0]} with the header {@code Authorization: args[1]}, says {@code calling} on standard
 * output, and asks to write {@code args[3]} to the file {@code args[2]}, a call that waits for a person.
 */
public final class HttpHostProcess {
    private HttpHostProcess() {
    }

    public static void main(String[] args) {
        URI url = URI.create(args[0]);
        McpSyncClient host = GatewayHost.start(HttpClientStreamableHttpTransport.builder("http://"
                        + url.getAuthority()).endpoint(url.getPath())
                        .requestBuilder(HttpRequest.newBuilder().header("Authorization", args[1])).build(),
                new McpSchema.Implementation("doomed-host", "1.0"), new CopyOnWriteArrayList<>(),
                new CopyOnWriteArrayList<>(), List.of("disk.write_file"));
        System.out.println("calling");
        System.out.flush();
        host.callTool(GatewayHost.writeRequest(Path.of(args[2]), args[3], "k1"));
    }
}
