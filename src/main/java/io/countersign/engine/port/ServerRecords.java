package io.countersign.engine.port;

import io.countersign.engine.tool.McpServerRecord;
import java.util.List;

/** Port: the remote server records an operator keeps, which the MCP adapter connects. */
@FunctionalInterface
public interface ServerRecords {

    /** Every record, enabled or not, in name order. */
    List<McpServerRecord> list();
}
