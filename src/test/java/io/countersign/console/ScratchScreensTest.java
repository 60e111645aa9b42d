package io.countersign.console;

import io.countersign.console.common.Theme;
import io.countersign.engine.Actor;
import io.countersign.engine.DataClass;
import io.countersign.engine.InputField;
import io.countersign.engine.Role;
import io.countersign.engine.RunStatus;
import io.countersign.engine.ToolEffect;
import io.countersign.engine.ToolInvocationTarget;
import io.countersign.service.RunCard;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

@ExtendWith(ApplicationExtension.class)
class ScratchScreensTest {
    InMemoryRunService service = new InMemoryRunService();
    ConsoleWindow window;

    @Start
    void start(Stage stage) {
        Instant now = Instant.now();
        service.add(new RunCard("7f3a9c21-aaaa", RunStatus.WAITING_FOR_APPROVAL, "release-notes-bot", "maria",
                now.minusSeconds(250), "Tidy the release notes for 2.4",
                "I'll rewrite NOTES.md and remove the old draft.", "d1",
                List.of(new RunCard.PendingCallView(0, "fs_write",
                        "{\n  \"path\" : \"docs/NOTES.md\",\n  \"content\" : \"## 2.4 — faster sync\\n\"\n}",
                        new ToolInvocationTarget("file", "docs/NOTES.md"),
                        List.of("--- docs/NOTES.md", "+++ docs/NOTES.md", "@@ -1,3 +1,3 @@", "-## 2.3",
                                "+## 2.4 — faster sync", " ", " - Sync is twice as fast"),
                        ToolEffect.WRITE, false, DataClass.SOURCE_CODE, false)),
                List.of(new RunCard.RefusedCallView(1, "fs_delete", "workspace.boundary", "outside_workspace",
                        "Keep the change inside the workspace folder \"release-notes\".")),
                null, false, false));
        service.add(new RunCard("1b2c3d4e-bbbb", RunStatus.WAITING_FOR_INPUT, "intake-form", "jonas",
                now.minusSeconds(130), "Register the new supplier", "I need a few details.", "d2",
                List.of(), List.of(), new RunCard.InputRequest(0, "ask_details",
                List.of(InputField.text("company", "Company", "The supplier's registered name", true),
                        new InputField("employees", InputField.InputType.INTEGER, "Employees",
                                "Head count, roughly", true, List.of()),
                        InputField.choice("country", "Country", "Where they are registered", false,
                                List.of("Germany", "France", "Netherlands"))),
                Map.of("company", "ACME GmbH")), false, false));
        service.add(new RunCard("99aa88bb-cccc", RunStatus.WAITING_FOR_APPROVAL, "web-research", "maria",
                now.minusSeconds(60), "Find the latest JavaFX release", "Fetching the release page.", "d3",
                List.of(new RunCard.PendingCallView(0, "web_fetch", "{\n  \"url\" : \"https://openjfx.io\"\n}",
                        new ToolInvocationTarget("host", "openjfx.io"), List.of(), ToolEffect.READ, true,
                        DataClass.PUBLIC_CONTENT, false)), List.of(), null, false, false));
        window = ConsoleWindow.open(stage, new ConsoleContext(service, Actor.of("maria", Role.OPERATOR),
                "~/.local/share/countersign/countersign.db", Theme.LIGHT), Executors.newFixedThreadPool(2),
                Clock.systemDefaultZone());
    }

    @Test
    void shots(FxRobot robot) throws Exception {
        WaitForAsyncUtils.sleep(500, java.util.concurrent.TimeUnit.MILLISECONDS);
        ScreenshotWriter.write(window.scene(), "scratch-empty");
        robot.interact(() -> window.viewModel().next());
        WaitForAsyncUtils.sleep(500, java.util.concurrent.TimeUnit.MILLISECONDS);
        ScreenshotWriter.write(window.scene(), "scratch-card");
        robot.interact(() -> window.viewModel().next());
        WaitForAsyncUtils.sleep(500, java.util.concurrent.TimeUnit.MILLISECONDS);
        ScreenshotWriter.write(window.scene(), "scratch-input");
        robot.interact(() -> window.viewModel().toggleTheme());
        robot.interact(() -> window.viewModel().previous());
        WaitForAsyncUtils.sleep(500, java.util.concurrent.TimeUnit.MILLISECONDS);
        ScreenshotWriter.write(window.scene(), "scratch-card-dark");
    }
}
