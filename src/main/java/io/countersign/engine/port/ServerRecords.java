package io.countersign.engine.port;

import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.tool.McpServerRecord;
import java.util.List;

/** Port: the remote server records an operator keeps, which the MCP adapter connects. */
@FunctionalInterface
public interface ServerRecords {

    /** Every record, enabled or not, in name order. */
    List<McpServerRecord> list();

    /**
     * The declaration a remote tool ({@code <server>.<tool>}) is judged on, with who made it where that is known:
     * its own, else its server record's; not declared when neither is. These records alone know no tool's own
     * declaration, so this default gives the server's; a store that keeps them says more.
     */
    default RemoteDeclaration declarationOf(String toolName) {
        String server = McpServerRecord.serverOf(toolName);
        ApprovalDeclaration declaration = list().stream().filter(record -> record.name().equals(server))
                .map(McpServerRecord::declaration).findFirst().orElse(ApprovalDeclaration.NOT_DECLARED);
        return new RemoteDeclaration(declaration, RemoteDeclaration.Source.SERVER, null);
    }
}
