package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.event.EventType;
import io.countersign.tools.mcp.McpServerException;
import io.countersign.tools.mcp.ServerFeatures;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import reactor.core.scheduler.Schedulers;

/**
 * The host's requests about the fronted servers' resources and prompts that the SDK's server cannot pass on,
 * answered here before it sees them: {@code resources/subscribe} and {@code resources/unsubscribe} of an offered
 * resource go to the server that offers it, and that server's {@code notifications/resources/updated} reach every
 * host session subscribed to the URI; {@code completion/complete} of an offered prompt (by the name the host sees
 * it under) or resource template goes to its server, naming the prompt as the server does. What is not offered (a
 * profile that does not offer a server's tools offers none of its resources or prompts) is refused as unknown. Each
 * use is recorded for the host's run without a URI, an argument or content. A server is asked once for a URI however
 * many sessions subscribe to it, and told when the last of them unsubscribed or ended.
 */
final class FrontedRequests implements AnsweredHere, AutoCloseable {
    static final String SUBSCRIBE = "resources/subscribe";
    static final String UNSUBSCRIBE = "resources/unsubscribe";
    static final String COMPLETE = "completion/complete";
    static final String UPDATED = "notifications/resources/updated";
    private static final Logger LOG = Logger.getLogger(FrontedRequests.class.getName());
    private static final Set<String> METHODS = Set.of(SUBSCRIBE, UNSUBSCRIBE, COMPLETE);

    /** The hosts' side: where a use is recorded, and how an update reaches a session. */
    interface Hosts {
        void used(String sessionId, EventType use, String server, String detail);

        void updated(String sessionId, String uri);
    }

    /** The sessions subscribed to a URI, and the server asked for its updates. */
    private record Subscription(ServerFeatures server, Set<String> sessions) {
    }

    private final Supplier<ResourcesAndPrompts> catalog;
    private final Hosts hosts;
    /**
     * Where the subscriptions change, one request at a time, so that a server hears them in the order the hosts sent
     * them; only it writes {@link #subscriptions} and {@link #listening}.
     */
    private final ExecutorService inOrder = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "countersign-gateway-subscriptions");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final Map<ServerFeatures, AutoCloseable> listening = new ConcurrentHashMap<>();

    /** @param catalog what is offered now; null before the gateway's server has started, when nothing is */
    FrontedRequests(Supplier<ResourcesAndPrompts> catalog, Hosts hosts) {
        this.catalog = catalog;
        this.hosts = hosts;
    }

    private Optional<ServerFeatures> resourceOwner(String uri) {
        ResourcesAndPrompts offered = catalog.get();
        return offered == null ? Optional.empty() : offered.resourceOwner(uri);
    }

    private Optional<ResourcesAndPrompts.Offered> prompt(String name) {
        ResourcesAndPrompts offered = catalog.get();
        return offered == null ? Optional.empty() : offered.prompt(name);
    }

    @Override
    public Optional<CompletableFuture<ObjectNode>> answer(String sessionId, HostMessage.Accepted message) {
        // a response of the host's (to a server's question) has an id and no method
        if (message.id() == null || message.method() == null || !METHODS.contains(message.method())) {
            return Optional.empty();
        }
        JsonNode id = message.id();
        ObjectNode params = message.params() == null ? Json.mapper().createObjectNode() : message.params();
        return Optional.of(switch (message.method()) {
            case SUBSCRIBE -> subscribe(sessionId, id, params.path("uri").asText());
            case UNSUBSCRIBE -> unsubscribe(sessionId, id, params.path("uri").asText());
            default -> complete(sessionId, id, params);
        });
    }

    private CompletableFuture<ObjectNode> subscribe(String sessionId, JsonNode id, String uri) {
        Optional<ServerFeatures> owner = resourceOwner(uri);
        if (owner.isEmpty()) {
            return CompletableFuture.completedFuture(notOffered(id, uri));
        }
        ServerFeatures server = owner.get();
        return asked(id, () -> {
            if (!server.offersSubscriptions()) {
                return JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params: server \""
                        + server.serverName() + "\", which offers resource \"" + uri + "\", offers no updates of its"
                        + " resources");
            }
            Subscription current = subscriptions.get(uri);
            if (current == null || current.server() != server) {
                listening.computeIfAbsent(server, each -> each.onResourceUpdated(updated -> updated(each, updated)));
                server.subscribe(uri);
                current = new Subscription(server, ConcurrentHashMap.newKeySet());
                subscriptions.put(uri, current);
            }
            current.sessions().add(sessionId);
            hosts.used(sessionId, EventType.RESOURCE_SUBSCRIBED, server.serverName(), null);
            return AnsweredHere.response(id, Json.mapper().createObjectNode());
        }, inOrder);
    }

    /**
     * Ends the session's subscription; one that is not there is no error, as long as the resource is offered (the
     * host may unsubscribe twice), but one to a resource the host cannot know is.
     */
    private CompletableFuture<ObjectNode> unsubscribe(String sessionId, JsonNode id, String uri) {
        return asked(id, () -> {
            Subscription current = subscriptions.get(uri);
            if (current == null || !current.sessions().contains(sessionId)) {
                return resourceOwner(uri).isPresent()
                        ? AnsweredHere.response(id, Json.mapper().createObjectNode()) : notOffered(id, uri);
            }
            leave(sessionId, uri, current);
            hosts.used(sessionId, EventType.RESOURCE_UNSUBSCRIBED, current.server().serverName(), null);
            return AnsweredHere.response(id, Json.mapper().createObjectNode());
        }, inOrder);
    }

    /** The session's subscription ends; the server is told once no session is subscribed to the URI. */
    private void leave(String sessionId, String uri, Subscription subscription) {
        subscription.sessions().remove(sessionId);
        if (subscription.sessions().isEmpty() && subscriptions.remove(uri, subscription)) {
            try {
                subscription.server().unsubscribe(uri);
            } catch (McpServerException e) {
                // the host's subscription has ended all the same: updates for it are no longer passed on
                LOG.log(Level.WARNING, "a server was not told that a resource's updates are no longer wanted: "
                        + e.getMessage());
            }
        }
    }

    /** The session ended: its subscriptions end with it. */
    void sessionEnded(String sessionId) {
        inOrder.execute(() -> subscriptions.forEach((uri, subscription) -> {
            if (subscription.sessions().contains(sessionId)) {
                leave(sessionId, uri, subscription);
            }
        }));
    }

    /** A server's resource was updated: every session subscribed to it through that server hears of it. */
    private void updated(ServerFeatures server, String uri) {
        Subscription subscription = subscriptions.get(uri);
        if (subscription == null || subscription.server() != server) {
            LOG.log(Level.FINE, "server {0} sent an update of a resource no host subscribed to through it",
                    server.serverName());
            return;
        }
        subscription.sessions().forEach(session -> hosts.updated(session, uri));
    }

    private CompletableFuture<ObjectNode> complete(String sessionId, JsonNode id, ObjectNode params) {
        JsonNode ref = params.path("ref");
        String type = ref.path("type").asText();
        ObjectNode forwarded = params.deepCopy();
        ServerFeatures server;
        String prompt = null;
        if ("ref/prompt".equals(type)) {
            String name = ref.path("name").asText();
            Optional<ResourcesAndPrompts.Offered> found = prompt(name);
            if (found.isEmpty()) {
                return CompletableFuture.completedFuture(JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_PARAMS,
                        "Invalid params: no prompt \"" + name + "\" is offered here"));
            }
            server = found.get().server();
            prompt = found.get().prompt().name();
            forwarded.withObject("ref").put("name", prompt);
        } else if ("ref/resource".equals(type)) {
            String uri = ref.path("uri").asText();
            Optional<ServerFeatures> owner = resourceOwner(uri);
            if (owner.isEmpty()) {
                return CompletableFuture.completedFuture(notOffered(id, uri));
            }
            server = owner.get();
        } else {
            return CompletableFuture.completedFuture(JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_PARAMS,
                    "Invalid params: completion/complete takes a ref of type \"ref/prompt\" or \"ref/resource\", not "
                            + (ref.has("type") ? ref.get("type").toString() : "none")));
        }
        String detail = prompt;
        return asked(id, () -> {
            ObjectNode result;
            if (server.offersCompletions()) {
                McpSchema.CompleteRequest request;
                try {
                    request = McpJsonDefaults.getMapper().convertValue(forwarded, McpSchema.CompleteRequest.class);
                } catch (IllegalArgumentException e) {
                    return JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params: the params of"
                            + " completion/complete are not MCP's (a ref, and an argument with a name and a value)");
                }
                result = McpJsonDefaults.getMapper().convertValue(server.complete(request), ObjectNode.class);
            } else {
                // a server that completes nothing has no completions to offer: none, as MCP's empty answer
                result = Json.mapper().createObjectNode();
                result.putObject("completion").put("hasMore", false).putArray("values");
            }
            hosts.used(sessionId, EventType.COMPLETION_ASKED, server.serverName(), detail);
            return AnsweredHere.response(id, result);
        }, command -> Schedulers.boundedElastic().schedule(command));
    }

    /**
     * Asks a server off the transport's thread; its failure reaches the host as a JSON-RPC error in words written
     * here.
     */
    private static CompletableFuture<ObjectNode> asked(JsonNode id, Supplier<ObjectNode> request,
                                                       Executor where) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return request.get();
            } catch (McpServerException e) {
                return JsonRpcErrors.error(id, McpSchema.ErrorCodes.INTERNAL_ERROR, "Internal error: "
                        + e.getMessage());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a host's request about a server's resources or prompts failed", e);
                return JsonRpcErrors.error(id, McpSchema.ErrorCodes.INTERNAL_ERROR, "Internal error: the gateway"
                        + " could not pass the request on");
            }
        }, where);
    }

    private static ObjectNode notOffered(JsonNode id, String uri) {
        return JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params: no resource \"" + uri
                + "\" is offered here");
    }

    @Override
    public void close() {
        inOrder.shutdownNow();
        listening.values().forEach(listener -> {
            try {
                listener.close();
            } catch (Exception e) {
                LOG.log(Level.FINE, "stopping to listen for a server's updates failed", e);
            }
        });
    }
}
