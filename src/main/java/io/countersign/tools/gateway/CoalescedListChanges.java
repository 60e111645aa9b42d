package io.countersign.tools.gateway;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.util.List;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * Holds back the SDK's list_changed notifications (of tools, resources and prompts), which it sends for every item
 * added or removed, while the gateway replaces what it offers: the host hears one notification per list that
 * changed, not one per item, and does not list again half-way through. It wraps either kind of transport provider: the
 * single-session one (stdio) and the streamable one (HTTP, a session per host).
 */
final class CoalescedListChanges {
    private static final Set<String> LISTS = Set.of(McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED,
            McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED, McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED);
    private volatile boolean holding;
    private McpServerTransportProviderBase delegate;

    /** The stdio provider, its list_changed held back while {@link #hold} says so. */
    McpServerTransportProvider around(McpServerTransportProvider provider) {
        delegate = provider;
        return new SingleSession(provider);
    }

    /** The streamable provider, its list_changed held back while {@link #hold} says so. */
    McpStreamableServerTransportProvider around(McpStreamableServerTransportProvider provider) {
        delegate = provider;
        return new Streamable(provider);
    }

    /** Holds back list_changed until {@link #release}. */
    void hold() {
        holding = true;
    }

    /** Lets list_changed through again, and sends one for each list notification method in {@code changed}. */
    void release(Set<String> changed) {
        holding = false;
        for (String method : changed) {
            delegate.notifyClients(method, null).block();
        }
    }

    private boolean held(String method) {
        return holding && LISTS.contains(method);
    }

    /** Everything but the session factory, which each kind of provider types differently. */
    private abstract class Held<P extends McpServerTransportProviderBase> implements McpServerTransportProviderBase {
        final P provider;

        Held(P provider) {
            this.provider = provider;
        }

        @Override
        public Mono<Void> notifyClients(String method, Object params) {
            return held(method) ? Mono.empty() : provider.notifyClients(method, params);
        }

        @Override
        public Mono<Void> notifyClient(String sessionId, String method, Object params) {
            return held(method) ? Mono.empty() : provider.notifyClient(sessionId, method, params);
        }

        @Override
        public void close() {
            provider.close();
        }

        @Override
        public Mono<Void> closeGracefully() {
            return provider.closeGracefully();
        }

        @Override
        public List<String> protocolVersions() {
            return provider.protocolVersions();
        }
    }

    private final class SingleSession extends Held<McpServerTransportProvider> implements McpServerTransportProvider {
        SingleSession(McpServerTransportProvider provider) {
            super(provider);
        }

        @Override
        public void setSessionFactory(McpServerSession.Factory factory) {
            provider.setSessionFactory(factory);
        }
    }

    private final class Streamable extends Held<McpStreamableServerTransportProvider>
            implements McpStreamableServerTransportProvider {
        Streamable(McpStreamableServerTransportProvider provider) {
            super(provider);
        }

        @Override
        public void setSessionFactory(McpStreamableServerSession.Factory factory) {
            provider.setSessionFactory(factory);
        }
    }
}
