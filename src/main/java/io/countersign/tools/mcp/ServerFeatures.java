package io.countersign.tools.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a connected MCP server offers beside its tools, for a gateway that passes it on to its hosts: its resources,
 * resource templates and prompts, each listed whole (every page), read or got as the server gives them; updates of
 * a resource, subscribed to; completions of a prompt's or template's arguments. A server that did not declare the
 * capability offers none. Every request has the record's deadline; a failure is an
 * {@link McpServerException} whose message names the server and what happened.
 */
public interface ServerFeatures {

    /** The server record's name. */
    String serverName();

    List<McpSchema.Resource> resources();

    List<McpSchema.ResourceTemplate> resourceTemplates();

    McpSchema.ReadResourceResult read(McpSchema.ReadResourceRequest request);

    List<McpSchema.Prompt> prompts();

    McpSchema.GetPromptResult prompt(McpSchema.GetPromptRequest request);

    /** Whether the server declared that its resources' updates may be subscribed to ({@code resources.subscribe}). */
    boolean offersSubscriptions();

    /** Whether the server declared that it completes arguments ({@code completions}). */
    boolean offersCompletions();

    /** Asks the server for updates of the resource; asked again of a new session after the server was lost. */
    void subscribe(String uri);

    /** Tells the server that updates of the resource are no longer wanted. */
    void unsubscribe(String uri);

    /**
     * Tells {@code listener} the URI of every resource the server says was updated, on the transport's thread, until
     * the returned handle is closed.
     */
    AutoCloseable onResourceUpdated(Consumer<String> listener);

    McpSchema.CompleteResult complete(McpSchema.CompleteRequest request);
}
