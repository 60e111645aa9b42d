package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.ToolResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class AskUserToolTest {
    private final AskUserTool tool = new AskUserTool();

    @Test
    void returnsThePersonsAnswer() throws Exception {
        ToolResult result = Calls.execute(tool, null, "question", "Which branch?", "answer", "release-2");

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).isEqualTo("The person answered: release-2");
    }

    @Test
    void asksForOneRequiredTextAnswer() {
        assertThat(tool.inputFields()).containsExactly(
                new InputField("answer", InputField.InputType.STRING, "Answer", "Your answer to the agent's question.",
                        true, List.of()));
    }

    @Test
    void schemaDeclaresTheQuestionAndTheAnswerButRequiresOnlyTheQuestion() {
        var schema = tool.argumentSchema();

        assertThat(schema.path("properties").path("question").path("type").asText()).isEqualTo("string");
        assertThat(schema.path("properties").path("answer").path("type").asText()).isEqualTo("string");
        assertThat(schema.path("required")).containsExactly(Calls.JSON.getNodeFactory().textNode("question"));
    }

    @Test
    void refusesACallWithoutAQuestion() throws Exception {
        ToolResult result = Calls.execute(tool, null, "answer", "yes");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: missing required argument \"question\"");
    }

    @Test
    void failsWhenNoAnswerArrived() throws Exception {
        ToolResult result = Calls.execute(tool, null, "question", "Which branch?");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: the person has not answered the question");
    }
}
