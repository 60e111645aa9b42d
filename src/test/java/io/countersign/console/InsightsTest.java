package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.console.common.Theme;
import io.countersign.console.insights.InsightRow;
import io.countersign.console.main.Section;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javafx.scene.Node;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.ToggleButton;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/**
 * The Insights screen over the real runtime: after maria denied the demo's web fetch, a supervisor opens it from
 * the sidebar and reads the decision by agent, by tool and by operator, the total and the two cards waiting now;
 * an operator has no such entry.
 */
class InsightsTest extends ConsoleRobotTest {

    /** The demo with the web research card denied by maria. */
    private void demoWithOneDecision() {
        console = RealConsole.withDemo(folder);
        Actor admin = console.admin();
        String runId = console.runtime().runs().recent(admin, 100).stream()
                .filter(run -> run.agent().equals("web-research")).findFirst().orElseThrow().runId();
        String digest = console.runtime().runs().card(admin, runId).orElseThrow().digest();
        console.runtime().runs().decide(console.user("maria"), runId, digest,
                List.of(Decision.CallVerdict.deny(0, "Not this site")));
    }

    @SuppressWarnings("unchecked")
    private static List<InsightRow> rows(FxRobot robot) {
        return onFx(() -> List.copyOf(robot.lookup("#insightsTable").queryAs(TableView.class).getItems()));
    }

    private static String text(FxRobot robot, String id) {
        return onFx(() -> robot.lookup(id).queryAs(Label.class).getText());
    }

    private static void choose(FxRobot robot, String comboId, String item) {
        robot.clickOn(comboId);
        robot.clickOn(robot.lookup(".list-cell").match(LabeledMatchers.hasText(item)).<Node>query());
    }

    @SuppressWarnings("unchecked")
    private static List<Number> waitingBars(FxRobot robot) {
        return onFx(() -> ((BarChart<String, Number>) robot.lookup("#waitingChart").queryAs(BarChart.class))
                .getData().get(0).getData().stream().map(XYChart.Data::getYValue).toList());
    }

    @Test
    void aSupervisorReadsHowLongTheDecisionTookByAgentToolAndOperator(FxRobot robot) {
        demoWithOneDecision();
        window = console.open(robot, stage, Actor.of("sam", Role.SUPERVISOR), Theme.LIGHT);
        WindowSize.SMALLEST.apply(robot, stage);
        await(() -> robot.lookup(".nav-item").tryQuery().isPresent());
        ToolSettingsTest.openSection(robot, Section.INSIGHTS);

        await(() -> rows(robot).size() == 1);
        assertThat(rows(robot)).singleElement().satisfies(row -> {
            assertThat(row.name()).isEqualTo("web-research");
            assertThat(row.decisions()).isEqualTo(1);
            assertThat(row.expired()).isZero();
            assertThat(row.max()).isNotEqualTo("–");
        });
        assertThat(text(robot, "#insightsTotal")).startsWith("All decisions: 1 · p50 ");
        assertThat(text(robot, "#insightsDays")).startsWith("Whole UTC days ").contains("within 4.4 %");
        assertThat(text(robot, "#waitingSummary")).startsWith("2 waiting; the oldest for ");
        assertThat(waitingBars(robot)).containsExactly(2L, 0L, 0L, 0L, 0L, 0L);

        choose(robot, "#insightsBy", "By tool");
        await(() -> rows(robot).size() == 1 && rows(robot).get(0).name().equals("web_fetch"));
        choose(robot, "#insightsBy", "By operator");
        await(() -> rows(robot).size() == 1 && rows(robot).get(0).name().equals("maria"));
        assertThat(rows(robot).get(0).decisions()).isEqualTo(1);

        choose(robot, "#insightsRange", "All time");
        await(() -> text(robot, "#insightsDays").startsWith("Every day counted"));
        assertThat(rows(robot)).extracting(InsightRow::name).containsExactly("maria");
    }

    @Test
    void anOperatorHasNoInsightsEntry(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        window = console.open(robot, stage, new Actor("olga", Set.of(Role.OPERATOR)), Theme.LIGHT);
        await(() -> robot.lookup(".nav-item").tryQuery().isPresent());

        assertThat(robot.lookup(".nav-item").queryAll().stream()
                .filter(node -> node instanceof ToggleButton && node.getUserData() instanceof Section)
                .map(Node::getUserData)).contains(Section.INBOX).doesNotContain(Section.INSIGHTS);
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void theScreenIsPhotographedAtTheSmallestSize(Theme theme, FxRobot robot) {
        demoWithOneDecision();
        window = console.open(robot, stage, console.admin(), theme);
        WindowSize.SMALLEST.apply(robot, stage);
        await(() -> robot.lookup(".nav-item").tryQuery().isPresent());
        ToolSettingsTest.openSection(robot, Section.INSIGHTS);
        await(() -> rows(robot).size() == 1 && !text(robot, "#waitingSummary").isEmpty());

        Path shot = ScreenshotWriter.write(window.scene(), "insights-" + theme.name().toLowerCase(Locale.ROOT));
        assertThat(shot).exists();
        assertThat(onFx(() -> Files.size(shot))).isPositive();
        assertThat(onFx(() -> LayoutCheck.clipped(window.scene()))).as("texts cut short").isEmpty();
    }
}
