package io.countersign.tools.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * A client transport that notes the JSON-RPC id under which each watched {@code tools/call} went out, so the call
 * can be cancelled at its server ({@code notifications/cancelled} names the request by that id). The SDK chooses
 * the ids and keeps them to itself; the request's parameters are the object the call was made with, which is how a
 * watched call is recognised on its way out.
 */
final class CancellableCalls implements McpClientTransport {
    private final McpClientTransport transport;
    /** Watched calls' parameters and, once sent, their request ids; by identity, since two calls may be equal. */
    private final Map<McpSchema.CallToolRequest, Object> ids = Collections.synchronizedMap(new IdentityHashMap<>());

    CancellableCalls(McpClientTransport transport) {
        this.transport = transport;
    }

    /** The call with these parameters is about to be sent: its id is to be noted. */
    void watch(McpSchema.CallToolRequest call) {
        ids.put(call, Unsent.INSTANCE);
    }

    /** The call has its answer or was given up: its id is no longer needed. */
    void forget(McpSchema.CallToolRequest call) {
        ids.remove(call);
    }

    /**
     * Asks the server to stop the call ({@code notifications/cancelled} with {@code reason}). False when the call
     * was never sent (nothing reached the server) or is no longer watched.
     */
    boolean cancel(McpSchema.CallToolRequest call, String reason) {
        Object id = ids.get(call);
        if (id == null || id == Unsent.INSTANCE) {
            return false;
        }
        transport.sendMessage(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
                "notifications/cancelled", Map.of("requestId", id, "reason", reason))).block();
        return true;
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest request
                && request.params() instanceof McpSchema.CallToolRequest call) {
            ids.computeIfPresent(call, (watched, unsent) -> request.id());
        }
        return transport.sendMessage(message);
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return transport.connect(handler);
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        transport.setExceptionHandler(handler);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return transport.closeGracefully();
    }

    @Override
    public void close() {
        transport.close();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return transport.unmarshalFrom(data, type);
    }

    @Override
    public List<String> protocolVersions() {
        return transport.protocolVersions();
    }

    /** A watched call not sent yet. */
    private enum Unsent { INSTANCE }
}
