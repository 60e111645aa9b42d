package io.countersign.tools.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Consumer;
import reactor.core.publisher.Mono;

/**
 * A client transport that sees what the SDK keeps to itself. On the way out, the JSON-RPC id under which each
 * watched {@code tools/call} went out, so the call can be cancelled at its server ({@code notifications/cancelled}
 * names the request by that id); the request's parameters are the object the call was made with, which is how a
 * watched call is recognised. On the way in, the URI of each {@code notifications/resources/updated}: the SDK
 * reads the resource again and hands on its contents, which a gateway passing the notification on has no use for
 * (and does not get when the resource is gone).
 */
final class ClientTap extends ForwardingClientTransport {
    private final Consumer<String> resourceUpdated;
    /** Watched calls' parameters and, once sent, their request ids; by identity, since two calls may be equal. */
    private final Map<McpSchema.CallToolRequest, Object> ids = Collections.synchronizedMap(new IdentityHashMap<>());

    /** @param resourceUpdated told the URI of each resource the server says was updated, on the transport's thread */
    ClientTap(McpClientTransport transport, Consumer<String> resourceUpdated) {
        super(transport);
        this.resourceUpdated = resourceUpdated;
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
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        T value = transport.unmarshalFrom(data, type);
        // the SDK reads a notification's params here, before it reads the resource again
        if (value instanceof McpSchema.ResourcesUpdatedNotification updated && updated.uri() != null) {
            resourceUpdated.accept(updated.uri());
        }
        return value;
    }

    /** A watched call not sent yet. */
    private enum Unsent { INSTANCE }
}
