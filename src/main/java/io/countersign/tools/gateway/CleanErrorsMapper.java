package io.countersign.tools.gateway;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;

/**
 * The JSON mapper of the host's transports, stdio and HTTP, with every message written to a host passed through
 * {@link JsonRpcErrors#clean(McpSchema.JSONRPCMessage)}, and told what the gateway serves beyond the SDK
 * ({@link HostCapabilities#advertised}): the SDK's servlet transport writes each answer with its mapper, and offers no
 * other place to see an answer before it leaves.
 */
record CleanErrorsMapper(McpJsonMapper delegate, HostCapabilities capabilities) implements McpJsonMapper {
    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T convertValue(Object value, Class<T> type) {
        return delegate.convertValue(value, type);
    }

    @Override
    public <T> T convertValue(Object value, TypeRef<T> type) {
        return delegate.convertValue(value, type);
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return delegate.writeValueAsString(cleaned(value));
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return delegate.writeValueAsBytes(cleaned(value));
    }

    private Object cleaned(Object value) {
        return value instanceof McpSchema.JSONRPCMessage message ? JsonRpcErrors.clean(capabilities.advertised(message))
                : value;
    }
}
