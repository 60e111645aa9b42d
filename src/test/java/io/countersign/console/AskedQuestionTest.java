package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.console.common.Theme;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.tools.mcp.AskingTicketServer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * A real MCP server asks for a ticket's title and priority during a call; the open console shows the question
 * as a card of the inbox at the smallest window size, and the person answers it with the mouse and keyboard.
 */
class AskedQuestionTest extends ConsoleRobotTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private AskingTicketServer server;
    private Actor person;
    private final List<GovernanceEvent> events = new CopyOnWriteArrayList<>();
    private CompletableFuture<RunOutcome> run;

    @BeforeEach
    void startTheServer() throws Exception {
        console = RealConsole.empty(folder);
        person = console.admin();
        server = closedAfterTheConsole(AskingTicketServer.start());
    }

    private void openAs(FxRobot robot, Actor actor) {
        console.open(robot, stage, actor, Theme.LIGHT);
        WindowSize.SMALLEST.apply(robot, stage);
        run = CompletableFuture.supplyAsync(() -> server.run(console.runtime().askedInputs(), RunOptions.DEFAULTS,
                events::add));
    }

    private void askWhileTheConsoleIsOpen(FxRobot robot) {
        openAs(robot, person);
        await(() -> robot.lookup(".asked-card").tryQuery().isPresent());
    }

    private static String text(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(".asked-card " + selector).queryAs(Label.class).getText());
    }

    private static String errorUnder(FxRobot robot, int row) {
        return onFx(() -> {
            Label error = (Label) robot.lookup(".asked-card .input-row").queryAll().stream().skip(row).findFirst()
                    .orElseThrow().lookup(".input-error");
            return error.isVisible() ? error.getText() : "";
        });
    }

    private static boolean cardGone(FxRobot robot) {
        return robot.lookup(".asked-card").tryQuery().isEmpty();
    }

    @Test
    void thePersonTypesTheTitleChoosesThePriorityAndTheServerGetsTheValues(FxRobot robot) throws Exception {
        askWhileTheConsoleIsOpen(robot);
        assertThat(text(robot, ".asked-heading")).startsWith("Server tickets asks during the call of tickets.file"
                + " in run ");
        assertThat(text(robot, ".outside-text")).isEqualTo("Which ticket?");
        assertThat(robot.lookup(".asked-card .input-row").queryAll()).hasSize(2);

        // sent empty: the required title is blamed under its field, which takes the focus, and nothing is sent
        robot.clickOn(".asked-submit");
        await(() -> errorUnder(robot, 0).equals("argument \"title\": is required"));
        TextField title = onFx(() -> (TextField) robot.lookup(".asked-card .input-row .text-field").query());
        await(title::isFocused);
        robot.write("no");
        await(() -> errorUnder(robot, 0).contains("at least 3 characters"));
        robot.write(" printer");
        await(() -> errorUnder(robot, 0).isEmpty());
        robot.clickOn(".asked-card .choice-box");
        robot.clickOn(robot.lookup(".menu-item").match(node -> node.lookup(".label") instanceof Label label
                && label.getText().equals("high")).<Node>query());
        assertThat(console.runtime().askedInputs().waiting(person)).hasSize(1);
        robot.clickOn(".asked-submit");

        assertThat(server.received()).isEqualTo(JSON.readTree("{\"action\": \"accept\", \"content\":"
                + " {\"title\": \"no printer\", \"priority\": \"high\"}}"));
        RunOutcome outcome = run.get(20, TimeUnit.SECONDS);
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        await(() -> cardGone(robot));
        assertThat(events).filteredOn(event -> event.type() == EventType.INPUT_ELICITED).singleElement()
                .satisfies(event -> {
                    assertThat(event.reasonCode()).isEqualTo("accept");
                    assertThat(event.actor()).isEqualTo(person.name());
                    assertThat(event.detail()).isEqualTo("fields: title, priority");
                    assertThat(event.toString()).doesNotContain("printer");
                });
        ScreenshotWriter.write(stage.getScene(), "asked-question-answered-light");
    }

    @Test
    void aDeclineGoesBackToTheServerAndTheCardLeaves(FxRobot robot) throws Exception {
        askWhileTheConsoleIsOpen(robot);
        ScreenshotWriter.write(stage.getScene(), "asked-question-light");
        assertThat(onFx(() -> LayoutCheck.clipped(stage.getScene()))).as("controls cut at 1024×700").isEmpty();
        robot.clickOn(".asked-decline");

        assertThat(server.received()).isEqualTo(JSON.readTree("{\"action\": \"decline\"}"));
        assertThat(AskingTicketServer.resultOf(run.get(20, TimeUnit.SECONDS)))
                .isEqualTo("{\"action\":\"decline\"}");
        await(() -> cardGone(robot));
        assertThat(events).filteredOn(event -> event.type() == EventType.INPUT_ELICITED)
                .extracting(GovernanceEvent::reasonCode, GovernanceEvent::actor)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("decline", person.name()));
    }

    @Test
    void aQuestionCancelledElsewhereLeavesTheInbox(FxRobot robot) throws Exception {
        askWhileTheConsoleIsOpen(robot);
        String id = console.runtime().askedInputs().waiting(person).get(0).id();
        assertThat(console.runtime().askedInputs().cancel(person, id)).isTrue();

        await(() -> cardGone(robot));
        assertThat(server.received()).isEqualTo(JSON.readTree("{\"action\": \"cancel\"}"));
        run.get(20, TimeUnit.SECONDS);
    }

    @Test
    void aConsoleOfSomeoneWhoMayNotAnswerIsNoSurfaceSoTheQuestionIsDeclinedAtOnce(FxRobot robot) throws Exception {
        openAs(robot, Actor.of("sam", Role.SUPERVISOR));

        assertThat(AskingTicketServer.resultOf(run.get(20, TimeUnit.SECONDS)))
                .isEqualTo("{\"action\":\"decline\"}");
        assertThat(events).filteredOn(event -> event.type() == EventType.INPUT_ELICITED)
                .extracting(GovernanceEvent::reasonCode, GovernanceEvent::actor)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("decline", null));
        assertThat(robot.lookup(".asked-card").tryQuery()).isEmpty();
    }

    @Test
    void whatWasTypedStaysWhileAnotherQuestionArrivesAndTheirAnswersGoToTheirOwnServers(FxRobot robot)
            throws Exception {
        askWhileTheConsoleIsOpen(robot);
        TextField first = onFx(() -> (TextField) robot.lookup(".asked-card .input-row .text-field").query());
        robot.clickOn(first).write("Printer");

        try (AskingTicketServer other = AskingTicketServer.start()) {
            CompletableFuture<RunOutcome> second = CompletableFuture.supplyAsync(() -> other.run(
                    console.runtime().askedInputs(), RunOptions.DEFAULTS, events::add));
            await(() -> robot.lookup(".asked-card").queryAll().size() == 2);
            assertThat(onFx(() -> robot.lookup(".asked-card .input-row .text-field").queryAll().iterator().next()))
                    .as("the first card's field, kept").isSameAs(first);
            assertThat(RealConsole.<String>onFx(first::getText)).isEqualTo("Printer");

            robot.clickOn(robot.lookup(".asked-decline").queryAll().stream().skip(1).findFirst().orElseThrow());
            assertThat(other.received()).isEqualTo(JSON.readTree("{\"action\": \"decline\"}"));
            second.get(20, TimeUnit.SECONDS);
        }
        await(() -> robot.lookup(".asked-card").queryAll().size() == 1);
        assertThat(RealConsole.<String>onFx(first::getText)).isEqualTo("Printer");
        robot.clickOn(".asked-submit");
        // the priority left empty takes the form's default
        assertThat(server.received()).isEqualTo(JSON.readTree("{\"action\": \"accept\", \"content\":"
                + " {\"title\": \"Printer\", \"priority\": \"low\"}}"));
        run.get(20, TimeUnit.SECONDS);
    }
}
