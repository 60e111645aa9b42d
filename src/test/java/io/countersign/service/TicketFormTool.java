package io.countersign.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.FixedTool;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolResult;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A ticket form whose argument schema says more than its fields: bounds, an enum on a text field, a pattern, a
 * length and a required property. It counts how often it ran.
 */
final class TicketFormTool extends FixedTool implements RequiresInput {
    static final String NAME = "ticket_form";
    /** An agent that asks for a ticket, then answers. */
    static final String AGENT = "ticket-taker";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A key that fits the schema but that the tracker does not know: the call fails as it runs. */
    static final String MISSING = "GONE-1";
    final AtomicInteger executions = new AtomicInteger();

    TicketFormTool() {
        super(NAME, "Asks the person for a ticket.", schema(), ToolEffect.READ, DataClass.PUBLIC_CONTENT, "forms");
    }

    static List<AssistantTurn> script() {
        return List.of(
                new AssistantTurn("Which ticket?", List.of(new ToolCall("t", NAME, JSON.createObjectNode())),
                        new TokenUsage(10, 3)),
                new AssistantTurn("Filed.", List.of(), new TokenUsage(10, 3)));
    }

    private static ObjectNode schema() {
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("summary").put("type", "string").put("maxLength", 20);
        properties.putObject("priority").put("type", "integer").put("minimum", 1).put("maximum", 4);
        properties.putObject("team").put("type", "string").putArray("enum").add("web").add("mobile");
        properties.putObject("key").put("type", "string").put("pattern", "^[A-Z]+-[0-9]+$");
        schema.putArray("required").add("key");
        return schema;
    }

    @Override
    public List<InputField> inputFields() {
        // the fields leave the bounds, the team's choices and the key's need to the schema
        return List.of(InputField.text("summary", "Summary", "One line", false),
                new InputField("priority", InputField.InputType.INTEGER, "Priority", "1 to 4", false, List.of()),
                InputField.text("team", "Team", "web or mobile", false),
                InputField.text("key", "Key", "Like WEB-12", false));
    }

    @Override
    public ToolResult execute(ToolCallRequest request) {
        executions.incrementAndGet();
        if (request.arguments().path("key").asText().equals(MISSING)) {
            return ToolResult.failure("the tracker has no project " + MISSING);
        }
        return ToolResult.ok("filed " + request.arguments().path("key").asText());
    }
}
