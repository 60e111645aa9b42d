package io.countersign.runtime;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.FixedTool;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolResult;
import java.util.List;

/**
 * A form the demo's intake agent asks a person to fill before it files a report: a summary, a priority and a
 * category. It shows every kind of typed field a card can render; the result only repeats what was entered.
 */
final class IntakeFormTool extends FixedTool implements RequiresInput {
    static final String NAME = "intake_form";
    private static final ObjectNode SCHEMA = schema();

    private static ObjectNode schema() {
        ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("summary").put("type", "string").put("description", "One line describing the problem");
        properties.putObject("priority").put("type", "integer").put("description", "1 (urgent) to 4 (someday)")
                .put("minimum", 1).put("maximum", 4);
        properties.putObject("category").put("type", "string").put("description", "bug, feature or question")
                .putArray("enum").add("bug").add("feature").add("question");
        schema.put("additionalProperties", false);
        return schema;
    }

    IntakeFormTool() {
        super(NAME,
                "Asks the person for the details of a report: a summary, a priority from 1 to 4 and a category.",
                SCHEMA, ToolEffect.READ, DataClass.PUBLIC_CONTENT, "interaction");
    }

    @Override
    public List<InputField> inputFields() {
        return List.of(
                InputField.text("summary", "Summary", "One line that says what goes wrong", true),
                new InputField("priority", InputField.InputType.INTEGER, "Priority",
                        "1 is urgent, 4 can wait", true, List.of()),
                InputField.choice("category", "Category", "What kind of report this is", true,
                        List.of("bug", "feature", "question")));
    }

    @Override
    public ToolResult execute(ToolCallRequest request) {
        ObjectNode values = request.arguments();
        return ToolResult.ok("Report details: " + values.path("summary").asText() + " (priority "
                + values.path("priority").asInt() + ", " + values.path("category").asText() + ")");
    }
}
