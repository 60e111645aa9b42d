package io.countersign.tools.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One message a host sent, read and checked against JSON-RPC's shape before the SDK sees it, over stdio and HTTP
 * alike: the SDK answers a body it cannot read with its own exception's text, and a parse error with the code of
 * an invalid request.
 */
sealed interface HostMessage {
    /** The longest message read, as the SDK's own transports allow: a host cannot make the gateway buffer more. */
    int MAX_BYTES = 16 * 1024 * 1024;

    /**
     * Reads one message.
     *
     * @return the message, or the refusal to send back, naming what is wrong with it
     */
    static HostMessage read(String text) {
        if (text.isBlank()) {
            return new Refused(null, McpSchema.ErrorCodes.PARSE_ERROR, "Parse error: the message is empty");
        }
        JsonNode json;
        try {
            json = Shape.READER.readTree(text);
        } catch (JsonProcessingException e) {
            return new Refused(null, McpSchema.ErrorCodes.PARSE_ERROR, "Parse error: " + Shape.unreadable(e,
                    text.strip().length()));
        }
        if (json.isArray()) {
            return new Refused(null, McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid request: JSON-RPC batches are"
                    + " not part of MCP since revision 2025-06-18; send one message at a time");
        }
        if (!json.isObject()) {
            return new Refused(null, McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid request: a JSON-RPC message is"
                    + " an object, not " + Shape.kind(json));
        }
        return Shape.check((ObjectNode) json);
    }

    /** A message of JSON-RPC's shape: a request, a notification or a response. */
    record Accepted(ObjectNode json) implements HostMessage {
        /** The method of a request or notification; null for a response. */
        String method() {
            return json.path("method").textValue();
        }

        /** The id of a request or response; null for a notification. */
        JsonNode id() {
            return json.get("id");
        }

        /** The params of a request or notification; null when it has none. */
        ObjectNode params() {
            return json.get("params") instanceof ObjectNode params ? params : null;
        }
    }

    /** A message refused, with the error object that says why ({@link #error()}). */
    record Refused(JsonNode id, int code, String message) implements HostMessage {
        ObjectNode error() {
            return JsonRpcErrors.error(id, code, message);
        }
    }

    /** The checks, in the order JSON-RPC 2.0 and MCP state them. */
    final class Shape {
        private static final ObjectReader READER = Json.mapper().reader()
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        /**
         * The params of the methods the gateway serves that the SDK's handlers read unchecked: one missing or of
         * another type leaves the request unanswered, or answered with what a Java exception said.
         */
        private static final Map<String, List<Param>> PARAMS = Map.ofEntries(
                Map.entry(McpSchema.METHOD_INITIALIZE, List.of(new Param("protocolVersion", true, JsonNodeType.STRING),
                        new Param("capabilities", false, JsonNodeType.OBJECT),
                        new Param("clientInfo", false, JsonNodeType.OBJECT))),
                Map.entry(McpSchema.METHOD_TOOLS_CALL, List.of(new Param("name", true, JsonNodeType.STRING),
                        new Param("arguments", false, JsonNodeType.OBJECT),
                        new Param("_meta", false, JsonNodeType.OBJECT),
                        new Param("task", false, JsonNodeType.OBJECT))),
                Map.entry(HostTasks.GET, List.of(new Param("taskId", true, JsonNodeType.STRING))),
                Map.entry(HostTasks.RESULT, List.of(new Param("taskId", true, JsonNodeType.STRING))),
                Map.entry(HostTasks.CANCEL, List.of(new Param("taskId", true, JsonNodeType.STRING))),
                Map.entry(HostTasks.LIST, List.of(new Param("cursor", false, JsonNodeType.STRING))),
                Map.entry(FrontedRequests.SUBSCRIBE, List.of(new Param("uri", true, JsonNodeType.STRING))),
                Map.entry(FrontedRequests.UNSUBSCRIBE, List.of(new Param("uri", true, JsonNodeType.STRING))),
                Map.entry(FrontedRequests.COMPLETE, List.of(new Param("ref", true, JsonNodeType.OBJECT),
                        new Param("argument", true, JsonNodeType.OBJECT))),
                Map.entry(McpSchema.METHOD_LOGGING_SET_LEVEL, List.of(new Param("level", true,
                        JsonNodeType.STRING))));

        private record Param(String name, boolean required, JsonNodeType type) {
        }

        private Shape() {
        }

        static HostMessage check(ObjectNode json) {
            JsonNode id = json.get("id");
            if (id != null && !id.isTextual() && !id.isIntegralNumber()) {
                return refused(null, "the id must be a string or an integer, not " + kind(id));
            }
            if (!McpSchema.JSONRPC_VERSION.equals(json.path("jsonrpc").textValue())) {
                return refused(id, "\"jsonrpc\" must be \"2.0\", not " + (json.has("jsonrpc")
                        ? json.get("jsonrpc").toString() : "missing"));
            }
            JsonNode method = json.get("method");
            if (method == null) {
                boolean answers = json.has("result") || json.has("error");
                return answers && id != null ? new Accepted(json) : refused(id, answers
                        ? "a response needs the id of the request it answers"
                        : "the message has no \"method\" (a request or notification) and no \"result\" or"
                        + " \"error\" (a response)");
            }
            if (!method.isTextual() || method.textValue().isBlank()) {
                return refused(id, "\"method\" must be a name, not " + kind(method));
            }
            JsonNode params = json.get("params");
            if (params != null && !params.isObject()) {
                return new Refused(id, McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params: the params of "
                        + method.textValue() + " must be an object, not " + kind(params));
            }
            for (Param param : PARAMS.getOrDefault(method.textValue(), List.of())) {
                JsonNode value = params == null ? null : params.get(param.name());
                if (value == null ? param.required() : value.getNodeType() != param.type()) {
                    return new Refused(id, McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params: "
                            + method.textValue() + (value == null ? " needs" : " takes") + " params." + param.name()
                            + " as " + kind(param.type()) + (value == null ? "" : ", not " + kind(value)));
                }
            }
            return new Accepted(json);
        }

        /** What is wrong with text that is not JSON, and where; never the parser's own words, which name classes. */
        static String unreadable(JsonProcessingException e, int length) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr();
            if (e instanceof JsonEOFException || e.getLocation() != null && e.getLocation().getCharOffset() >= length) {
                return "the JSON ends early" + where + ", before its value is complete";
            }
            if (e instanceof MismatchedInputException) {
                return "more follows the JSON value" + where + "; send one message at a time";
            }
            return "the message is not JSON" + where;
        }

        private static Refused refused(JsonNode id, String why) {
            return new Refused(id, McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid request: " + why);
        }

        static String kind(JsonNode node) {
            return kind(node.getNodeType());
        }

        private static String kind(JsonNodeType type) {
            return switch (type) {
                case ARRAY -> "an array";
                case OBJECT -> "an object";
                case STRING -> "a string";
                case NUMBER -> "a number";
                case BOOLEAN -> "a boolean";
                case NULL -> "null";
                default -> "a " + type.name().toLowerCase(Locale.ROOT);
            };
        }
    }
}
