package io.countersign.engine.tool;

/**
 * A tool imported from a remote (MCP) server. It is judged on the operator's declaration on its server
 * record ({@link ToolSettings#serverDeclaration}), never on its effect or on the server's own hints: a tool whose
 * server nobody declared runs without approval.
 */
public interface RemoteTool extends Tool {

    /** The name of the server record this tool came from. */
    String serverName();
}
