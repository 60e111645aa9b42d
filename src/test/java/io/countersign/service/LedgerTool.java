package io.countersign.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.RequiresApproval;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A tool that needs approval for every call and appends one line, {@code <run> <entry>}, to a file each time it
 * executes, so that a test can count the executions of each call even across processes and kills.
 */
final class LedgerTool implements RequiresApproval {
    static final String NAME = "ledger_append";
    /** Two pauses: one entry, then two entries in one turn, then an answer. */
    static final String TWO_PAUSES = "ledger-bot";
    /** One pause for one entry, then an answer. */
    static final String ONE_PAUSE = "single-entry";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    /** Run after each execution's line is written: a crash test halts there. */
    private final Runnable afterExecution;
    /** Whether the execution for a run, its line written, reports its outcome unknown. */
    private final Predicate<String> vanishes;

    LedgerTool(Path file) {
        this(file, () -> { });
    }

    LedgerTool(Path file, Runnable afterExecution) {
        this(file, afterExecution, runId -> false);
    }

    private LedgerTool(Path file, Runnable afterExecution, Predicate<String> vanishes) {
        this.file = file;
        this.afterExecution = afterExecution;
        this.vanishes = vanishes;
    }

    /**
     * A ledger whose execution for a run that {@code vanishes} writes its line and then reports its outcome unknown,
     * as a server that went away during the call does.
     */
    static LedgerTool vanishing(Path file, Predicate<String> vanishes) {
        return new LedgerTool(file, () -> { }, vanishes);
    }

    /** The scripts of the two ledger agents. */
    static Map<String, List<AssistantTurn>> scripts() {
        return Map.of(
                TWO_PAUSES, List.of(
                        turn("Recording the first entry.", call("a", "first")),
                        turn("Two more.", call("b", "second"), call("c", "third")),
                        turn("All three entries are recorded.")),
                ONE_PAUSE, List.of(
                        turn("Recording the entry.", call("a", "only")),
                        turn("Recorded.")));
    }

    /** How often each {@code <run> <entry>} line was written. */
    static Map<String, Long> executions(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Map.of();
        }
        try (Stream<String> lines = Files.lines(file)) {
            return lines.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        }
    }

    private static ToolCall call(String id, String entry) {
        return new ToolCall(id, NAME, JSON.createObjectNode().put("entry", entry));
    }

    static AssistantTurn turn(String content, ToolCall... calls) {
        return new AssistantTurn(content, List.of(calls), new TokenUsage(20, 5));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Appends an entry to the ledger.";
    }

    @Override
    public ObjectNode argumentSchema() {
        return entrySchema();
    }

    /** One required string, the entry. */
    static ObjectNode entrySchema() {
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        schema.putObject("properties").putObject("entry").put("type", "string");
        schema.putArray("required").add("entry");
        return schema;
    }

    @Override
    public ToolEffect effect() {
        return ToolEffect.WRITE;
    }

    @Override
    public DataClass dataClass() {
        return DataClass.PUBLIC_CONTENT;
    }

    @Override
    public String group() {
        return "ledger";
    }

    @Override
    public Optional<ToolPreview> preview(ToolCallRequest request) {
        return Optional.of(new ToolPreview(List.of("+ " + request.arguments().path("entry").asText())));
    }

    @Override
    public ToolResult execute(ToolCallRequest request) throws IOException {
        append(file, request);
        afterExecution.run();
        if (vanishes.test(request.context().runReference())) {
            return ToolResult.outcomeUnknown("the ledger went away during the call of " + NAME);
        }
        return ToolResult.ok("recorded " + request.arguments().path("entry").asText());
    }

    /** Appends {@code <run> <entry>} for the call, in one small O_APPEND write: a kill leaves all of it or none. */
    static void append(Path file, ToolCallRequest request) throws IOException {
        String line = request.context().runReference() + " " + request.arguments().path("entry").asText() + "\n";
        Files.write(file, line.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
