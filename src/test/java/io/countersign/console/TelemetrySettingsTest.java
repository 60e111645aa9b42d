package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static io.countersign.testing.OtlpReceiver.named;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.engine.Actor;
import io.countersign.engine.port.TelemetrySettings;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.testing.OtlpReceiver;
import java.util.Locale;
import java.util.Map;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;

/**
 * The telemetry screen over the real settings service and store: an admin names the collector, and a run that
 * another process starts afterwards is exported to it.
 */
class TelemetrySettingsTest extends ConsoleRobotTest {
    private final OtlpReceiver collector = closedAfterTheConsole(new OtlpReceiver());

    private static String text(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).queryAs(Label.class).getText());
    }

    private static boolean shown(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).query().isVisible());
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void anAdminNamesTheCollectorAndTheNextRunOfAnotherProcessIsExportedToIt(Theme theme, FxRobot robot) {
        console = RealConsole.withDemo(folder);
        CountersignRuntime other = console.otherProcess();
        assertThat(other.exporting()).isFalse();
        Actor admin = console.admin();
        ConsoleWindow window = console.open(robot, stage, admin, theme);
        WindowSize.SMALLEST.apply(robot, stage);
        ToolSettingsTest.openSection(robot, Section.TELEMETRY);
        await(() -> robot.lookup("#telemetryEndpoint").query().isVisible());
        assertThat(text(robot, "#telemetryEnvironment"))
                .startsWith("A process’s OTEL_* environment variables win over these settings");
        assertThat(onFx(() -> robot.lookup("#telemetryService").queryTextInputControl().getText()))
                .isEqualTo("countersign");

        // a credential typed as a value is refused, without repeating it
        robot.clickOn("#telemetryEndpoint").write(collector.endpoint());
        robot.clickOn("#telemetryHeaders").write("authorization=Bearer sk-live-123");
        robot.clickOn("#saveTelemetry");
        await(() -> shown(robot, "#telemetryFormError"));
        assertThat(text(robot, "#telemetryFormError")).contains("authorization").contains("env:NAME")
                .doesNotContain("sk-live-123");

        robot.clickOn("#telemetryHeaders").press(KeyCode.CONTROL, KeyCode.A)
                .release(KeyCode.A, KeyCode.CONTROL)
                .write("authorization=env:OTLP_TOKEN_NOT_SET\nx-scope-orgid=team-a");
        robot.doubleClickOn("#telemetryService").write("countersign-desk");
        robot.clickOn("#telemetryCapture");
        await(() -> shown(robot, "#captureWarning"));
        ScreenshotWriter.write(window.scene(), "settings-telemetry-" + theme.name().toLowerCase(Locale.ROOT));
        robot.clickOn("#telemetryCapture");
        await(() -> !shown(robot, "#captureWarning"));
        robot.clickOn("#saveTelemetry");

        await(() -> shown(robot, "#telemetryStatus"));
        assertThat(text(robot, "#telemetryStatus")).isEqualTo("Saved: runs started from now on export to "
                + collector.endpoint() + ".");
        assertThat(console.runtime().settings().telemetry(admin)).isEqualTo(new TelemetrySettings(
                collector.endpoint(), Map.of("authorization", "env:OTLP_TOKEN_NOT_SET", "x-scope-orgid", "team-a"),
                "countersign-desk", 1.0, false));
        assertThat(console.runtime().settings().history(admin, 1)).singleElement()
                .satisfies(change -> assertThat(change.settingKey()).isEqualTo("telemetry:export"));

        // the other process hears of the change through the store's change feed, and exports its next run
        await(other::exporting);
        other.runs().start(console.user("jonas"), "web-research", "Check the changelog", false);
        console.closeOther(other);
        assertThat(named(collector.spans(), "invoke_agent web-research")).isNotEmpty();
        assertThat(collector.everything()).contains("countersign-desk").doesNotContain("Check the changelog");
    }
}
