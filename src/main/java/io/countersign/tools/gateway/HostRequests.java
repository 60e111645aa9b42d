package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import java.util.Map;

/**
 * Which of the host's requests a handler serves, so that the host's {@code notifications/cancelled} can name it:
 * the SDK hands a handler the request's params but not its JSON-RPC id, so each transport puts the id in the
 * request's transport context under {@link #REQUEST_ID} (over HTTP from the id the protocol gate read).
 */
final class HostRequests {
    /** The transport-context key of the request's JSON-RPC id. */
    static final String REQUEST_ID = "countersign.jsonrpc.id";
    /** MCP's notification that the host gave up on one of its requests. */
    static final String CANCELLED = "notifications/cancelled";

    private HostRequests() {
    }

    /** The transport context that carries {@code id} to the request's handler. */
    static McpTransportContext context(Object id) {
        return McpTransportContext.create(Map.of(REQUEST_ID, id));
    }

    /** The key of the request the exchange serves, or null when its transport did not tell its id. */
    static String key(McpAsyncServerExchange exchange) {
        Object id = exchange.transportContext() == null ? null : exchange.transportContext().get(REQUEST_ID);
        return id == null ? null : key(id);
    }

    /**
     * One key for a JSON-RPC id however it was read (a Java value or a Jackson node): a number by its decimal text (the integer 7 and 7.0 are one
     * id), a string quoted, so that the number 7 and the string "7" stay two requests.
     */
    static String key(Object id) {
        if (id instanceof JsonNode node) {
            return node.isNumber() ? key(node.numberValue()) : key(node.asText());
        }
        if (id instanceof Number number) {
            double value = number.doubleValue();
            return value == Math.rint(value) && !Double.isInfinite(value) ? Long.toString(number.longValue())
                    : number.toString();
        }
        return "\"" + id + "\"";
    }
}
