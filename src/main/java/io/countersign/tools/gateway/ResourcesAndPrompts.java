package io.countersign.tools.gateway;

import io.countersign.engine.event.EventType;
import io.countersign.tools.mcp.McpServerException;
import io.countersign.tools.mcp.ServerFeatures;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.util.DefaultMcpUriTemplateManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The resources, resource templates and prompts of the fronted servers whose tools a profile offers, offered to the
 * host as those servers give them: a resource or a template under its own URI (of two servers that give the same
 * one, the first by name keeps it), a prompt under its own name unless two servers give it, then as
 * {@code <server>.<name>}, as tools are named. Reading a resource or getting a prompt asks its server off the
 * transport's thread, and the host's connection records the use without its content.
 */
final class ResourcesAndPrompts {
    private static final Logger LOG = Logger.getLogger(ResourcesAndPrompts.class.getName());

    /** Where a host's reading of a server's resource or getting of a prompt is recorded. */
    interface Uses {
        void used(McpAsyncServerExchange exchange, EventType use, String server, String detail);
    }

    /** A prompt as offered: the server's own prompt, under the name the host sees. */
    record Offered(ServerFeatures server, McpSchema.Prompt prompt) {
    }

    private final McpAsyncServer server;
    private final Uses uses;
    /** What is offered now, by URI, URI template and host-visible name; guarded by this. */
    private Map<String, McpSchema.Resource> resources = Map.of();
    private Map<String, McpSchema.ResourceTemplate> templates = Map.of();
    private Map<String, Offered> prompts = Map.of();
    /** The server each offered resource and template is read from, by URI and URI template; guarded by this. */
    private Map<String, ServerFeatures> resourceOwners = Map.of();
    private Map<String, ServerFeatures> templateOwners = Map.of();
    private volatile boolean subscriptions;
    private volatile boolean completions;

    ResourcesAndPrompts(McpAsyncServer server, Uses uses) {
        this.server = server;
        this.uses = uses;
    }

    /**
     * Offers what the servers offer now in place of what was offered, each server listed once; a server that
     * cannot be listed offers nothing this time.
     *
     * @return the list_changed notification methods of the lists that changed
     */
    synchronized Set<String> sync(List<ServerFeatures> servers) {
        Map<String, McpServerFeatures.AsyncResourceSpecification> nextResources = new LinkedHashMap<>();
        Map<String, McpServerFeatures.AsyncResourceTemplateSpecification> nextTemplates = new LinkedHashMap<>();
        Map<String, List<Offered>> promptsByName = new LinkedHashMap<>();
        Map<String, ServerFeatures> nextResourceOwners = new HashMap<>();
        Map<String, ServerFeatures> nextTemplateOwners = new HashMap<>();
        boolean anySubscriptions = false;
        boolean anyCompletions = false;
        for (ServerFeatures features : servers.stream()
                .sorted((one, other) -> one.serverName().compareTo(other.serverName())).toList()) {
            try {
                anySubscriptions |= features.offersSubscriptions();
                anyCompletions |= features.offersCompletions();
                for (McpSchema.Resource resource : features.resources()) {
                    nextResourceOwners.putIfAbsent(resource.uri(), features);
                    nextResources.putIfAbsent(resource.uri(), new McpServerFeatures.AsyncResourceSpecification(
                            resource, (exchange, request) -> read(exchange, features, request)));
                }
                for (McpSchema.ResourceTemplate template : features.resourceTemplates()) {
                    nextTemplateOwners.putIfAbsent(template.uriTemplate(), features);
                    nextTemplates.putIfAbsent(template.uriTemplate(),
                            new McpServerFeatures.AsyncResourceTemplateSpecification(template,
                                    (exchange, request) -> read(exchange, features, request)));
                }
                for (McpSchema.Prompt prompt : features.prompts()) {
                    promptsByName.computeIfAbsent(prompt.name(), name -> new ArrayList<>())
                            .add(new Offered(features, prompt));
                }
            } catch (McpServerException e) {
                LOG.log(Level.WARNING, "the resources and prompts of " + features.serverName()
                        + " could not be listed: " + e.getMessage());
            }
        }
        Map<String, Offered> nextPrompts = new LinkedHashMap<>();
        promptsByName.forEach((name, offered) -> offered.forEach(each -> nextPrompts.put(offered.size() == 1 ? name
                : each.server().serverName() + "." + name, each)));
        resourceOwners = nextResourceOwners;
        templateOwners = nextTemplateOwners;
        subscriptions = anySubscriptions;
        completions = anyCompletions;
        Set<String> changed = new HashSet<>();
        Map<String, McpSchema.Resource> resourcesNow = new HashMap<>();
        nextResources.forEach((uri, spec) -> resourcesNow.put(uri, spec.resource()));
        if (!resourcesNow.equals(resources)) {
            resources.keySet().forEach(uri -> server.removeResource(uri).block());
            nextResources.values().forEach(spec -> server.addResource(spec).block());
            resources = resourcesNow;
            changed.add(McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED);
        }
        Map<String, McpSchema.ResourceTemplate> templatesNow = new HashMap<>();
        nextTemplates.forEach((uri, spec) -> templatesNow.put(uri, spec.resourceTemplate()));
        if (!templatesNow.equals(templates)) {
            templates.keySet().forEach(uri -> server.removeResourceTemplate(uri).block());
            nextTemplates.values().forEach(spec -> server.addResourceTemplate(spec).block());
            templates = templatesNow;
            changed.add(McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED);
        }
        if (!nextPrompts.equals(prompts)) {
            prompts.keySet().forEach(name -> server.removePrompt(name).block());
            nextPrompts.forEach((name, offered) -> server.addPrompt(new McpServerFeatures.AsyncPromptSpecification(
                    renamed(offered.prompt(), name), (exchange, request) -> prompt(exchange, offered, request)))
                    .block());
            prompts = nextPrompts;
            changed.add(McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED);
        }
        return changed;
    }

    /** Whether a server offered now declares subscriptions to its resources' updates. */
    boolean subscriptions() {
        return subscriptions;
    }

    /** Whether a server offered now declares completions. */
    boolean completions() {
        return completions;
    }

    /**
     * The offered server whose resource the URI names: one it lists, or one its template matches (or the template
     * itself, as a completion names it).
     */
    synchronized Optional<ServerFeatures> resourceOwner(String uri) {
        ServerFeatures owner = resourceOwners.getOrDefault(uri, templateOwners.get(uri));
        if (owner != null) {
            return Optional.of(owner);
        }
        return templateOwners.entrySet().stream()
                .filter(template -> new DefaultMcpUriTemplateManager(template.getKey()).matches(uri))
                .map(Map.Entry::getValue).findFirst();
    }

    /** The offered prompt the host knows by {@code name}. */
    synchronized Optional<Offered> prompt(String name) {
        return Optional.ofNullable(prompts.get(name));
    }

    private Mono<McpSchema.ReadResourceResult> read(McpAsyncServerExchange exchange, ServerFeatures features,
                                                    McpSchema.ReadResourceRequest request) {
        return offThread(() -> {
            McpSchema.ReadResourceResult result = features.read(request);
            uses.used(exchange, EventType.RESOURCE_READ, features.serverName(), null);
            return result;
        });
    }

    private Mono<McpSchema.GetPromptResult> prompt(McpAsyncServerExchange exchange, Offered offered,
                                                   McpSchema.GetPromptRequest request) {
        return offThread(() -> {
            McpSchema.GetPromptResult result = offered.server().prompt(new McpSchema.GetPromptRequest(
                    offered.prompt().name(), request.arguments(), request.meta()));
            uses.used(exchange, EventType.PROMPT_USED, offered.server().serverName(), offered.prompt().name());
            return result;
        });
    }

    /**
     * Asks a server on a thread of its own, never the transport's, which reads the host's next messages; a
     * server's failure reaches the host as a JSON-RPC error in words written here.
     */
    private static <T> Mono<T> offThread(Callable<T> request) {
        return Mono.fromCallable(request).subscribeOn(Schedulers.boundedElastic())
                .onErrorMap(McpServerException.class, e -> McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR)
                        .message(e.getMessage()).build());
    }

    private static McpSchema.Prompt renamed(McpSchema.Prompt prompt, String name) {
        return name.equals(prompt.name()) ? prompt
                : new McpSchema.Prompt(name, prompt.title(), prompt.description(), prompt.arguments(), prompt.meta(),
                prompt.icons());
    }
}
