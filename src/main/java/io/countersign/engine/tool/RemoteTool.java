package io.countersign.engine.tool;

/**
 * A tool imported from a remote (MCP) server. It is judged on the operator's declaration, its own or else its
 * server record's ({@link io.countersign.engine.tool.ToolSettings#declarationOf}), never on its effect or on the
 * server's own hints: a tool nobody declared, on a server nobody declared, runs without approval.
 */
public interface RemoteTool extends Tool {

    /** The name of the server record this tool came from. */
    String serverName();

    /** What the server says of the tool: shown as its claims, never used to decide anything. */
    default ServerHints hints() {
        return ServerHints.NONE;
    }
}
