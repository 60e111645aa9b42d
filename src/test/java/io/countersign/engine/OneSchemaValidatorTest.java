package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static io.countersign.engine.TestTools.args;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.run.EditCheck;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InputValidation;
import io.countersign.engine.tool.InvalidInputException;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.SchemaProblem;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.tools.NetworkntSchemaValidator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SPEC §6 and §11: the model's arguments, a person's edit of them and a person's typed input are checked by one
 * validator against the whole JSON Schema ({@code $ref}, {@code pattern}, {@code format}, {@code oneOf}, which the
 * hand-written subset never checked), and each is refused with the same sentence; nothing executes.
 */
class OneSchemaValidatorTest {
    /** One schema for three tools: the model calls one, a person edits another's call, and types into a third. */
    private static final String SCHEMA = """
            {"type": "object",
             "$defs": {"key": {"type": "string", "pattern": "^[A-Z]+-[0-9]+$"}},
             "properties": {
               "key": {"$ref": "#/$defs/key"},
               "due": {"type": "string", "format": "date"},
               "owner": {"oneOf": [{"type": "string", "pattern": "^team:"}, {"type": "integer", "minimum": 1}]}
             }}""";

    private static final class Ticket extends TestTools.Recording {
        Ticket(String name, ToolEffect effect) {
            super(name, effect, DataClass.PUBLIC_CONTENT, "files");
        }

        @Override
        public ObjectNode argumentSchema() {
            return args(SCHEMA);
        }
    }

    private static final class TicketForm extends TestTools.Recording implements RequiresInput {
        TicketForm() {
            super("ticket_form", ToolEffect.READ, DataClass.PUBLIC_CONTENT, "files");
        }

        @Override
        public ObjectNode argumentSchema() {
            return args(SCHEMA);
        }

        @Override
        public List<InputField> inputFields() {
            return List.of(InputField.text("key", "Key", "", false), InputField.text("due", "Due", "", false),
                    InputField.text("owner", "Owner", "", false));
        }
    }

    private final Ticket lookup = new Ticket("ticket_lookup", ToolEffect.READ);
    private final Ticket file = new Ticket("ticket_file", ToolEffect.WRITE);
    private final TicketForm form = new TicketForm();
    private final LoopHarness harness = new LoopHarness(lookup, file, form);

    /** What the model reads when its own call does not fit, minus the frame around the sentence. */
    private String refusalOfTheModelsCall(String arguments) {
        RunOutcome outcome = harness.loop(script(calls(call("c1", "ticket_lookup", arguments)), answer("ok")))
                .runLoop(harness.request("look"));
        assertThat(lookup.executed).isEmpty();
        String result = resultOf(outcome, "c1");
        String frame = "Error: the arguments of \"ticket_lookup\" do not fit its schema: ";
        assertThat(result).startsWith(frame).endsWith(". Nothing was executed.");
        return result.substring(frame.length(), result.length() - ". Nothing was executed.".length());
    }

    /** What the person is told when their edit of a waiting call does not fit. */
    private String refusalOfAnEdit(String arguments) {
        ToolLoop loop = harness.loop(script(calls(call("c1", "ticket_file", "{\"key\": \"WEB-1\"}")), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("file"))).state();
        EditCheck check = loop.checkEdit(state, harness.agent, 0, args(arguments));
        assertThat(check).isInstanceOf(EditCheck.Invalid.class);
        String problem = ((EditCheck.Invalid) check).problem();
        String frame = "the arguments of call 0 (ticket_file) do not fit its schema: ";
        assertThat(problem).startsWith(frame);
        return problem.substring(frame.length());
    }

    /** What the person is told under the field when their typed value does not fit. */
    private String refusalOfTypedInput(String values) {
        ToolLoop loop = harness.loop(script(calls(call("c1", "ticket_form", "{}")), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForInput) loop.runLoop(harness.request("form"))).state();
        Throwable thrown = catchThrowable(() -> loop.resumeInput(state,
                harness.agent, TestDecisions.input(state, harness.maria, args(values))));
        assertThat(thrown).isInstanceOf(InvalidInputException.class);
        assertThat(form.executed).isEmpty();
        List<InputValidation.FieldError> errors = ((InvalidInputException) thrown).errors();
        assertThat(errors).hasSize(1);
        return errors.get(0).message();
    }

    private void refusedAlikeEverywhere(String arguments, String sentence) {
        assertThat(refusalOfTheModelsCall(arguments)).isEqualTo(sentence);
        assertThat(refusalOfAnEdit(arguments)).isEqualTo(sentence);
        assertThat(refusalOfTypedInput(arguments)).isEqualTo(sentence);
    }

    @Test
    void aPatternBehindARefIsCheckedWithTheSameSentenceEverywhere() {
        refusedAlikeEverywhere("{\"key\": \"web 12\"}", "argument \"key\": must match the pattern ^[A-Z]+-[0-9]+$");
    }

    @Test
    void aFormatIsCheckedWithTheSameSentenceEverywhere() {
        refusedAlikeEverywhere("{\"due\": \"2026-13-45\"}",
                "argument \"due\": must be a valid date, got \"2026-13-45\"");
    }

    @Test
    void oneOfIsCheckedWithTheSameSentenceEverywhere() {
        refusedAlikeEverywhere("{\"owner\": \"nobody\"}",
                "argument \"owner\": must match exactly one of the schema's alternatives, and matches 0");
    }

    @Test
    void valuesThatFitTheWholeSchemaPassEveryCheck() {
        String fits = "{\"key\": \"WEB-12\", \"due\": \"2026-12-31\", \"owner\": \"team:ops\"}";
        RunOutcome outcome = harness.loop(script(calls(call("c1", "ticket_lookup", fits)), answer("ok")))
                .runLoop(harness.request("look"));

        assertThat(resultOf(outcome, "c1")).startsWith("done ticket_lookup");
        ToolLoop editing = harness.loop(script(calls(call("c2", "ticket_file", "{}")), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) editing.runLoop(harness.request("file"))).state();
        assertThat(editing.checkEdit(state, harness.agent, 0, args(fits))).isInstanceOf(EditCheck.Fits.class);
        ToolLoop asking = harness.loop(script(calls(call("c3", "ticket_form", "{}")), answer("ok")));
        PausedState asked = ((RunOutcome.WaitingForInput) asking.runLoop(harness.request("form"))).state();
        asking.resumeInput(asked, harness.agent, TestDecisions.input(asked, harness.maria, args(fits)));
        assertThat(form.executed).singleElement().isEqualTo(args(fits));
    }

    @Test
    void anEmptyRequiredFieldReadsAsAMissingRequiredArgument() {
        SchemaValidator schemas = new NetworkntSchemaValidator();
        ObjectNode schema = args("{\"type\": \"object\", \"properties\": {\"key\": {\"type\": \"string\"}},"
                + " \"required\": [\"key\"]}");

        assertThat(schemas.firstProblem(schema, args("{}"))).map(SchemaProblem::sentence)
                .hasValue("argument \"key\": is required");
        assertThat(InputValidation.validate(schemas, List.of(InputField.text("key", "Key", "", true)),
                args("{\"key\": \" \"}"))).containsExactly(new InputValidation.FieldError("key",
                "argument \"key\": is required"));
    }
}
