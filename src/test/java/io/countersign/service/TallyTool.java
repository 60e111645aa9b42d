package io.countersign.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.FixedTool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A tool that runs without approval (so an unattended run calls it on its own) and appends {@code <run> <entry>}
 * to the ledger file at each execution, as {@link LedgerTool} does, so that a worker's executions are counted.
 */
final class TallyTool extends FixedTool {
    static final String NAME = "tally_count";
    /** One call, then an answer: a worker's first stretch that executes once. */
    static final String COUNTER = "tally-bot";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;

    TallyTool(Path file) {
        super(NAME, "Counts one more.", LedgerTool.entrySchema(), ToolEffect.READ, DataClass.PUBLIC_CONTENT, "tally");
        this.file = file;
    }

    static Map<String, List<AssistantTurn>> scripts() {
        return Map.of(COUNTER, List.of(
                LedgerTool.turn("Counting.", new ToolCall("t", NAME, JSON.createObjectNode().put("entry", "tally"))),
                LedgerTool.turn("Counted.")));
    }

    @Override
    public ToolResult execute(ToolCallRequest request) throws IOException {
        LedgerTool.append(file, request);
        return ToolResult.ok("counted");
    }
}
