package io.countersign.tools.gateway;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * A transport provider that holds back the SDK's {@code notifications/tools/list_changed}, which it sends for every
 * tool added or removed, while the gateway replaces its tools: the host hears one notification per change of the
 * offered set, not one per tool, and does not list the tools again half-way through.
 */
final class CoalescedListChanges implements McpServerTransportProvider {
    private final McpServerTransportProvider delegate;
    private volatile boolean holding;

    CoalescedListChanges(McpServerTransportProvider delegate) {
        this.delegate = delegate;
    }

    /** Holds back list_changed until {@link #release}. */
    void hold() {
        holding = true;
    }

    /** Lets list_changed through again, and sends one when {@code changed}. */
    void release(boolean changed) {
        holding = false;
        if (changed) {
            delegate.notifyClients(McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED, null).block();
        }
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory factory) {
        delegate.setSessionFactory(factory);
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        if (holding && McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED.equals(method)) {
            return Mono.empty();
        }
        return delegate.notifyClients(method, params);
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        if (holding && McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED.equals(method)) {
            return Mono.empty();
        }
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
}
