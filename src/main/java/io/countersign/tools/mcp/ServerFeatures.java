package io.countersign.tools.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;

/**
 * What a connected MCP server offers beside its tools, for a gateway that passes it on to its hosts: its resources,
 * resource templates and prompts, each listed whole (every page), read or got as the server gives them. A server
 * that did not declare the capability offers none. Every request has the record's deadline; a failure is an
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
}
