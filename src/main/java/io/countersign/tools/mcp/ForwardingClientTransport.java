package io.countersign.tools.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/** A client transport that hands everything to another; a subclass overrides what it watches on the way. */
public abstract class ForwardingClientTransport implements McpClientTransport {
    protected final McpClientTransport transport;

    protected ForwardingClientTransport(McpClientTransport transport) {
        this.transport = transport;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return transport.connect(handler);
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return transport.sendMessage(message);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return transport.unmarshalFrom(data, type);
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        transport.setExceptionHandler(handler);
    }

    @Override
    public List<String> protocolVersions() {
        return transport.protocolVersions();
    }

    @Override
    public Mono<Void> closeGracefully() {
        return transport.closeGracefully();
    }

    @Override
    public void close() {
        transport.close();
    }
}
