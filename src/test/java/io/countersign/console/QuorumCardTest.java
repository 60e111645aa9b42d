package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.ApprovalQuorum;
import io.countersign.engine.decision.Decision.CallVerdict;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.RunCard;
import io.countersign.store.StoredAgentConfiguration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javafx.scene.Node;
import javafx.scene.control.Label;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/**
 * A card that needs two approvals, in the console: it says who approved it already and when, and the second
 * person's approval, sent with the card's own keys, resumes the run with both names on the decision.
 */
class QuorumCardTest extends ConsoleRobotTest {
    private static final DateTimeFormatter TIME_OF_DAY = DateTimeFormatter.ofPattern("HH:mm");

    private static boolean bannerSays(FxRobot robot, String text) {
        return robot.lookup(".card .banner-text").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().equals(text));
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void theCardNamesTheFirstApproverAndTheSecondApprovalResumesTheRun(Theme theme, FxRobot robot)
            throws Exception {
        console = RealConsole.withDemo(folder);
        StoredAgentConfiguration stored = console.runtime().store().configurations()
                .findAgent("release-notes-bot").orElseThrow();
        console.runtime().store().configurations().saveAgent(new StoredAgentConfiguration(stored.name(),
                stored.systemPrompt(), stored.modelName(), stored.toolGroups(), stored.allowedTools(),
                stored.workspace(), stored.toolCallPolicies(), stored.maxRounds(), stored.fourEyes(),
                stored.deadlines(), new ApprovalQuorum(2, Map.of())));
        CountersignRuntime other = console.otherProcess();
        Actor jonas = other.store().users().find("jonas").orElseThrow();
        WaitingRun notes = other.runs().inbox(jonas).stream().filter(run -> run.agent().equals("release-notes-bot"))
                .findFirst().orElseThrow();
        assertThat(other.runs().decide(jonas, notes.runId(), notes.digest(), List.of(CallVerdict.approve(0))))
                .isInstanceOf(DecisionResult.PartlyApproved.class);
        RunCard card = other.runs().card(jonas, notes.runId()).orElseThrow();
        String at = TIME_OF_DAY.format(card.approvals().approvals().get(0).at().atZone(ZoneId.systemDefault()));

        ConsoleWindow window = console.open(robot, stage, console.admin(), theme);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("release-notes-bot")).<Node>query());
        await(() -> bannerSays(robot, "1 of 2 approvals \u2014 approved by jonas at " + at));
        ScreenshotWriter.write(window.scene(), "approval-card-quorum-" + theme.name().toLowerCase(Locale.ROOT));

        robot.clickOn(".verdict-approve");
        robot.clickOn(".submit");
        await(() -> robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(toast -> toast.getText().startsWith("release-notes-bot: 1 call approved.")));
        StoredRun decided = console.runtime().store().runs().find(notes.runId()).orElseThrow();
        assertThat(decided.status()).isNotEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        assertThat(decided.lastDecision().decidedBy()).isEqualTo(console.admin().name());
        assertThat(decided.lastDecision().summary()).isEqualTo("approved 1, denied 0 (2 approvals: jonas and "
                + console.admin().name() + ")");
        assertThat(onFx(() -> robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("release-notes-bot"))
                .tryQuery().isPresent())).isFalse();
    }
}
