package io.countersign.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolResult;
import java.util.List;

/** A form for one line of text that a person fills; its result repeats what they typed. */
final class NoteFormTool implements RequiresInput {
    static final String NAME = "note_form";
    /** An agent that asks for a note, then answers. */
    static final String AGENT = "note-taker";
    private static final ObjectMapper JSON = new ObjectMapper();

    static List<AssistantTurn> script() {
        return List.of(
                new AssistantTurn("What should the note say?", List.of(new ToolCall("n", NAME,
                        JSON.createObjectNode().put("summary", "a guess"))), new TokenUsage(10, 3)),
                new AssistantTurn("Noted.", List.of(), new TokenUsage(10, 3)));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Asks the person for a one-line note.";
    }

    @Override
    public ObjectNode argumentSchema() {
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        schema.putObject("properties").putObject("summary").put("type", "string");
        return schema;
    }

    @Override
    public ToolEffect effect() {
        return ToolEffect.READ;
    }

    @Override
    public DataClass dataClass() {
        return DataClass.PUBLIC_CONTENT;
    }

    @Override
    public String group() {
        return "forms";
    }

    @Override
    public List<InputField> inputFields() {
        return List.of(InputField.text("summary", "Note", "One line", true));
    }

    @Override
    public ToolResult execute(ToolCallRequest request) {
        return ToolResult.ok("noted: " + request.arguments().path("summary").asText());
    }
}
