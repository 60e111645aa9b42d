package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Requests of a host that the gateway answers itself, before the SDK's server sees them, over stdio and HTTP alike:
 * methods the SDK does not know, or serves only from what it was built with.
 */
interface AnsweredHere {
    /**
     * The JSON-RPC response to a request of the host's session answered here; empty for any other message. It may
     * complete later, on another thread: the transport writes it when it comes.
     */
    Optional<CompletableFuture<ObjectNode>> answer(String sessionId, HostMessage.Accepted message);

    /** {@code {"jsonrpc":"2.0","id":ID,"result":RESULT}}. */
    static ObjectNode response(JsonNode id, ObjectNode result) {
        ObjectNode response = Json.mapper().createObjectNode().put("jsonrpc", McpSchema.JSONRPC_VERSION);
        response.set("id", id);
        response.set("result", result);
        return response;
    }

    /** The answer of the first of {@code all} that answers the message. */
    static AnsweredHere first(List<AnsweredHere> all) {
        return (sessionId, message) -> all.stream().map(each -> each.answer(sessionId, message))
                .flatMap(Optional::stream).findFirst();
    }
}
