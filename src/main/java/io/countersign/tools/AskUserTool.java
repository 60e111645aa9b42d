package io.countersign.tools;

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
 * {@code ask_user}: the model asks the person behind the run a question; the run waits until they type the
 * answer into the {@code answer} field, which replaces whatever the model put there.
 */
public final class AskUserTool extends FixedTool implements RequiresInput {
    public static final String NAME = "ask_user";

    // "answer" is declared so that the person's value, laid over the model's arguments, is a valid argument
    private static final StringParameters PARAMETERS = StringParameters.builder()
            .required("question", "The question for the person, complete enough to answer without other context.")
            .optional("answer", "Filled in by the person; leave it out.")
            .build();
    private static final List<InputField> FIELDS = List.of(
            InputField.text("answer", "Answer", "Your answer to the agent's question.", true));

    public AskUserTool() {
        super(NAME,
                "Ask the person behind this run a question and wait for their typed answer. Use it when you need a"
                + " fact or a decision only they can give.",
                PARAMETERS.schema(), ToolEffect.READ, DataClass.PUBLIC_CONTENT, "interaction");
    }

    @Override
    public List<InputField> inputFields() {
        return FIELDS;
    }

    @Override
    public ToolResult execute(ToolCallRequest request) {
        try {
            StringParameters.Arguments arguments = PARAMETERS.read(request.arguments());
            return arguments.optional("answer")
                    .map(answer -> ToolResult.ok("The person answered: " + answer))
                    .orElseGet(() -> ToolResult.failure("the person has not answered the question"));
        } catch (Refusal refusal) {
            return ToolResult.failure(refusal.getMessage());
        }
    }
}
