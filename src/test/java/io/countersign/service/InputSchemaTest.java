package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputValidation;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §6: typed input is checked against the input tool's argument schema before anything runs; input outside
 * it is refused with the field and the rule, the tool does not run, and the run still waits for valid input.
 */
class InputSchemaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Actor OLGA = Actor.of("olga", Role.OPERATOR);
    private static final Actor JONAS = Actor.of("jonas", Role.OPERATOR);

    @TempDir
    Path folder;
    final TicketFormTool form = new TicketFormTool();
    ServiceRig rig;
    String runId;

    @BeforeEach
    void start() {
        rig = ServiceRig.open(new StoreLocation.SqliteFile(folder.resolve("store.db")), List.of(form),
                Map.of(TicketFormTool.AGENT, TicketFormTool.script()));
        runId = rig.service.start(OLGA, TicketFormTool.AGENT, "File a ticket", false).runId();
    }

    @AfterEach
    void close() {
        rig.close();
    }

    private static ObjectNode valid() {
        return JSON.createObjectNode().put("summary", "Login fails").put("priority", 2).put("team", "web")
                .put("key", "WEB-12");
    }

    private DecisionResult submit(ObjectNode values) {
        return rig.service.submitInput(JONAS, runId, rig.service.card(JONAS, runId).orElseThrow().digest(), values);
    }

    private void assertRefusedAndStillWaiting(ObjectNode values, String field, String message) {
        DecisionResult result = submit(values);

        assertThat(result).isInstanceOfSatisfying(DecisionResult.InvalidInput.class, invalid ->
                assertThat(invalid.errors()).containsExactly(new InputValidation.FieldError(field, message)));
        assertThat(form.executions).hasValue(0);
        assertThat(rig.store.runs().find(runId).orElseThrow().status()).isEqualTo(RunStatus.WAITING_FOR_INPUT);
        assertThat(submit(valid())).isEqualTo(new DecisionResult.Done(runId, RunStatus.COMPLETED, 0, 0));
        assertThat(form.executions).hasValue(1);
    }

    @Test
    void aNumberAboveTheMaximumIsRefusedAndTheRunWaitsForValidInput() {
        assertRefusedAndStillWaiting(valid().put("priority", 9), "priority", "argument \"priority\": must be at most 4");
    }

    @Test
    void aNumberBelowTheMinimumIsRefused() {
        assertRefusedAndStillWaiting(valid().put("priority", 0), "priority", "argument \"priority\": must be at least 1");
    }

    @Test
    void aValueOutsideTheSchemasEnumIsRefused() {
        assertRefusedAndStillWaiting(valid().put("team", "desk"), "team",
                "argument \"team\": must be one of \"web\", \"mobile\"");
    }

    @Test
    void textThatDoesNotMatchThePatternIsRefused() {
        assertRefusedAndStillWaiting(valid().put("key", "web 12"), "key",
                "argument \"key\": must match the pattern ^[A-Z]+-[0-9]+$");
    }

    @Test
    void textLongerThanTheMaximumLengthIsRefused() {
        assertRefusedAndStillWaiting(valid().put("summary", "Login fails on every second Tuesday"), "summary",
                "argument \"summary\": must have at most 20 characters");
    }

    @Test
    void aPropertyTheSchemaRequiresIsRequiredEvenWhenTheFieldIsOptional() {
        ObjectNode values = valid();
        values.remove("key");
        assertRefusedAndStillWaiting(values, "key", "argument \"key\": is required");
    }

    @Test
    void lettersInANumberFieldAreRefusedWithWhatWasTyped() {
        assertRefusedAndStillWaiting(valid().put("priority", "high"), "priority",
                "argument \"priority\": must be an integer, got \"high\"");
    }

    @Test
    void validInputWhoseCallFailsIsDoneButSaysTheCallFailed() {
        DecisionResult result = submit(valid().put("key", TicketFormTool.MISSING));

        assertThat(result).isEqualTo(new DecisionResult.Done(runId, RunStatus.COMPLETED, 0, 0, List.of(
                new DecisionResult.FailedCall(TicketFormTool.NAME, false, "the tracker has no project GONE-1"))));
        assertThat(form.executions).hasValue(1);
    }
}
