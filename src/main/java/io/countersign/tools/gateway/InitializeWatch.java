package io.countersign.tools.gateway;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import reactor.core.publisher.Mono;

/**
 * A transport provider that tells who connected as soon as a host sends {@code initialize}: the SDK's server has
 * no hook of its own there. Each session's transport reads the request's parameters for the session
 * ({@link McpServerTransport#unmarshalFrom}), which is where the host's {@code clientInfo} is seen first over
 * stdio; a streamable session starts from the initialize request itself.
 */
abstract class InitializeWatch<P extends McpServerTransportProviderBase> implements McpServerTransportProviderBase {
    final P delegate;
    final BiConsumer<String, McpSchema.Implementation> initialized;

    private InitializeWatch(P delegate, BiConsumer<String, McpSchema.Implementation> initialized) {
        this.delegate = delegate;
        this.initialized = initialized;
    }

    /** @param initialized told the session's id and the host's {@code clientInfo} (null when it sent none) */
    static McpServerTransportProvider around(McpServerTransportProvider provider,
                                             BiConsumer<String, McpSchema.Implementation> initialized) {
        return new SingleSession(provider, initialized);
    }

    /** The same for streamable HTTP, whose session factory is handed the initialize request itself. */
    static McpStreamableServerTransportProvider around(McpStreamableServerTransportProvider provider,
                                                       BiConsumer<String, McpSchema.Implementation> initialized) {
        return new Streamable(provider, initialized);
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return delegate.notifyClients(method, params);
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return delegate.notifyClient(sessionId, method, params);
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }

    private static final class SingleSession extends InitializeWatch<McpServerTransportProvider>
            implements McpServerTransportProvider {
        SingleSession(McpServerTransportProvider delegate, BiConsumer<String, McpSchema.Implementation> initialized) {
            super(delegate, initialized);
        }

        @Override
        public void setSessionFactory(McpServerSession.Factory factory) {
            delegate.setSessionFactory(transport -> {
                AtomicReference<String> sessionId = new AtomicReference<>();
                McpServerSession session = factory.create(new Watched(transport,
                        request -> initialized.accept(sessionId.get(), request.clientInfo())));
                // set before the session handles any message, so before the host's initialize
                sessionId.set(session.getId());
                return session;
            });
        }
    }

    private static final class Streamable extends InitializeWatch<McpStreamableServerTransportProvider>
            implements McpStreamableServerTransportProvider {
        Streamable(McpStreamableServerTransportProvider delegate,
                   BiConsumer<String, McpSchema.Implementation> initialized) {
            super(delegate, initialized);
        }

        @Override
        public void setSessionFactory(McpStreamableServerSession.Factory factory) {
            delegate.setSessionFactory(request -> {
                McpStreamableServerSession.McpStreamableServerSessionInit started = factory.startSession(request);
                initialized.accept(started.session().getId(), request.clientInfo());
                return started;
            });
        }
    }

    /** A session's transport that reports the host's initialize request as the session reads it. */
    private record Watched(McpServerTransport delegate, Consumer<McpSchema.InitializeRequest> seen)
            implements McpServerTransport {
        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            T value = delegate.unmarshalFrom(data, type);
            if (value instanceof McpSchema.InitializeRequest request) {
                seen.accept(request);
            }
            return value;
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return delegate.sendMessage(message);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return delegate.closeGracefully();
        }

        @Override
        public void close() {
            delegate.close();
        }

        @Override
        public List<String> protocolVersions() {
            return delegate.protocolVersions();
        }
    }
}
