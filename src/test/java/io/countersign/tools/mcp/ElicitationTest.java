package io.countersign.tools.mcp;

import static io.countersign.tools.mcp.ScriptedAgent.answer;
import static io.countersign.tools.mcp.ScriptedAgent.call;
import static io.countersign.tools.mcp.ScriptedAgent.resultOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InvalidInputException;
import io.countersign.engine.port.IdGenerator;
import io.countersign.service.AskedInputs;
import io.countersign.tools.NetworkntSchemaValidator;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Streamable HTTP server on a real socket whose tool asks for a ticket's title and priority
 * ({@code elicitation/create}) on the call's event stream and answers with what it got. The run's call waits in
 * this process for the person's answer, with the form's fields as input fields and their validation.
 */
class ElicitationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<GovernanceEvent> events = new CopyOnWriteArrayList<>();
    private final AskedInputs asked = new AskedInputs(Clock.systemUTC(), IdGenerator.random(),
            new NetworkntSchemaValidator());
    private AskingTicketServer server;
    private AutoCloseable surface;

    @BeforeEach
    void start() throws IOException {
        server = AskingTicketServer.start();
        surface = asked.attach(() -> { });
    }

    @AfterEach
    void stop() throws Exception {
        surface.close();
        server.close();
    }

    private RunOutcome run(RunOptions options) {
        return server.run(asked, options, events::add);
    }

    private AskedInputs.Asked question() {
        await().atMost(Duration.ofSeconds(10)).until(() -> !asked.waiting(ScriptedAgent.JONAS).isEmpty());
        return asked.waiting(ScriptedAgent.JONAS).get(0);
    }

    @Test
    void theRunWaitsForThePersonsAnswerWhichGoesBackToTheServerAndTheCallGoesOn() throws Exception {
        CompletableFuture<RunOutcome> run = CompletableFuture.supplyAsync(() -> run(RunOptions.DEFAULTS));

        AskedInputs.Asked question = question();
        assertThat(question.runId()).isEqualTo("run-1");
        assertThat(question.toolName()).isEqualTo("tickets.file");
        assertThat(question.message()).isEqualTo("Which ticket?");
        assertThat(question.fields()).extracting(InputField::name, InputField::type, InputField::required)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("title", InputField.InputType.STRING, true),
                        org.assertj.core.groups.Tuple.tuple("priority", InputField.InputType.ENUM, false));
        assertThatThrownBy(() -> asked.accept(ScriptedAgent.JONAS, question.id(), values("{\"title\": \"no\"}")))
                .isInstanceOf(InvalidInputException.class);
        Thread.sleep(1_500); // longer than the call timeout: the person's time does not count
        assertThat(asked.accept(ScriptedAgent.JONAS, question.id(),
                values("{\"title\": \"Printer on fire\", \"priority\": \"high\"}"))).isTrue();
        RunOutcome outcome = run.get(20, TimeUnit.SECONDS);

        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(JSON.readTree(resultOf(outcome, "c1"))).isEqualTo(JSON.readTree("{\"action\": \"accept\","
                + " \"content\": {\"title\": \"Printer on fire\", \"priority\": \"high\"}}"));
        assertThat(events).filteredOn(event -> event.type() == EventType.INPUT_ELICITED).singleElement()
                .satisfies(event -> {
                    assertThat(event.reasonCode()).isEqualTo("accept");
                    assertThat(event.actor()).isEqualTo("jonas");
                    assertThat(event.toolName()).isEqualTo("tickets.file");
                    assertThat(event.detail()).isEqualTo("fields: title, priority");
                    assertThat(event.toString()).doesNotContain("Printer");
                });
        assertThat(asked.waiting(ScriptedAgent.JONAS)).isEmpty();
    }

    @Test
    void aDeclineGoesBackToTheServerAsADecline() throws Exception {
        CompletableFuture<RunOutcome> run = CompletableFuture.supplyAsync(() -> run(RunOptions.DEFAULTS));

        assertThat(asked.decline(ScriptedAgent.JONAS, question().id())).isTrue();

        assertThat(resultOf(run.get(20, TimeUnit.SECONDS), "c1")).isEqualTo("{\"action\":\"decline\"}");
        assertThat(events).filteredOn(event -> event.type() == EventType.INPUT_ELICITED)
                .extracting(GovernanceEvent::reasonCode).containsExactly("decline");
    }

    @Test
    void anUnattendedRunDeclinesWithoutAskingAnyone() {
        RunOutcome outcome = run(RunOptions.unattendedRun());

        assertThat(resultOf(outcome, "c1")).isEqualTo("{\"action\":\"decline\"}");
        assertThat(events).filteredOn(event -> event.type() == EventType.INPUT_ELICITED).singleElement()
                .satisfies(event -> {
                    assertThat(event.reasonCode()).isEqualTo("decline");
                    assertThat(event.actor()).isNull();
                });
    }

    private static ObjectNode values(String json) throws IOException {
        return (ObjectNode) JSON.readTree(json);
    }
}
